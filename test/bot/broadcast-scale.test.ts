/**
 * /broadcast at scale, in virtual time (test/helpers/virtual-time.ts): 1,000 users, the emulator
 * enforcing Telegram's 30 messages per second (429 with retry_after beyond it), every 20th user
 * having blocked the bot. A broadcast that takes 34 s of real time runs here in seconds (what it
 * costs in CPU), its pace measured in exact virtual seconds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import { useVirtualTime, type VirtualTime } from '../helpers/virtual-time.ts';
import { adminCommands } from '../../src/bot/commands.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { adminId, copiesOf, formatted, startPhotoBroadcast, worldWithUsers, type Audience } from '../helpers/broadcast.ts';

const rate = 30;

describe('/broadcast to 1,000 users at 30 messages per second (virtual time)', () => {
  let world: TestWorld | undefined;
  let time: VirtualTime;
  afterEach(async () => {
    await world?.stop();
    world = undefined;
    time.restore();
  });

  /** The world with 1,000 users, Telegram's limits enforced, BROADCAST_RATE=30. */
  async function start(): Promise<Audience> {
    time = useVirtualTime();
    let audience: Audience;
    [world, audience] = await worldWithUsers(1000, {
      time,
      env: { BROADCAST_RATE: String(rate) },
      telegram: { enforceLimits: { globalPerSecond: rate, perChatPerSecond: 1 } },
    });
    return audience;
  }

  /** The admin taps 📣 Kirim under the picker of a photo broadcast to everyone. */
  async function send(admin: EmulatedUser): Promise<EmulatedMessage> {
    const picker = await startPhotoBroadcast(world!, admin, time);
    admin.tap(picker, '📣 Kirim');
    return picker;
  }

  /** The final report in the admin's chat ("Siaran selesai" or "Siaran dihentikan"). */
  const finalReport = (admin: EmulatedUser, text = 'Siaran selesai') =>
    time.when(() => world!.telegram.botMessages(admin).find((m) => m.method === 'sendMessage' && m.text?.includes(text)), {
      limitMs: 200_000,
      message: `no "${text}" report`,
    });

  /** Copies of the broadcast delivered so far (the admin's preview left out). */
  const delivered = () => world!.telegram.callsTo('copyMessage').filter((call) => call.status === 200).length - 1;

  it('copies a photo with its caption and URL button to every active user exactly once at 90% of the rate or more, and skips and marks the blocked ones', async () => {
    const { admin, users, blocked } = await start();
    const w = world!;
    const picker = await startPhotoBroadcast(w, admin, time);
    expect(picker.text).toContain(`${formatted(users.length + 1)} pengguna aktif`);
    const startedAt = time.elapsed();
    admin.tap(picker, '📣 Kirim');
    const report = await finalReport(admin);
    const seconds = (time.elapsed() - startedAt) / 1000;

    const active = users.length - blocked.size + 1;
    expect(report.text).toContain(`Terkirim: ${formatted(active)} · diblokir: ${blocked.size} · gagal: 0`);
    for (const user of users) expect(copiesOf(w, user), `user ${user.id}`).toBe(blocked.has(user.id) ? 0 : 1);
    expect(copiesOf(w, admin)).toBe(1);
    for (const id of blocked) expect((await w.app.db.users.get(id))?.active).toBe(false);
    expect(picker.text).toContain('Siaran selesai');
    // A later broadcast leaves out who blocked the bot.
    expect(await time.until(w.app.deps.broadcasts.recipients({ kind: 'all' }))).toHaveLength(active);

    // The pace: at least 90% of BROADCAST_RATE, never above Telegram's 30 per second.
    expect(active / seconds, `${active} copies in ${seconds} virtual s`).toBeGreaterThanOrEqual(0.9 * rate);
    expect(w.telegram.maxSendsInWindow('all', 1000)).toBeLessThanOrEqual(30);
    // Only the admin's chat, where the preview, the picker and their copy came within a second, met a 429.
    expect(w.telegram.calls.filter((call) => call.status === 429 && call.params.chat_id !== adminId)).toHaveLength(0);
  }, 60_000);

  it('stopped halfway and started again on the same data, it resumes where it stopped: nobody gets it twice', async () => {
    const { admin, users, blocked } = await start();
    const w = world!;
    await send(admin);
    await time.when(() => delivered() >= 450);
    await time.until(w.restart());
    expect(delivered(), 'the restart must interrupt the broadcast').toBeLessThan(500);
    const report = await finalReport(admin);
    const active = users.length - blocked.size + 1;
    expect(report.text).toContain(`Terkirim: ${formatted(active)} · diblokir: ${blocked.size} · gagal: 0`);
    for (const user of users) expect(copiesOf(w, user), `user ${user.id}`).toBe(blocked.has(user.id) ? 0 : 1);
    expect(copiesOf(w, admin)).toBe(1);
  }, 60_000);

  it('/broadcast_cancel stops it: no copy after the admin is told, and the report counts what went out', async () => {
    const { admin, users } = await start();
    const w = world!;
    await send(admin);
    await time.when(() => delivered() >= 300);
    const told = await time.until(
      w.telegram.waitForBotMessage(admin, { after: admin.send('/broadcast_cancel'), textIncludes: 'dihentikan' }),
    );
    const report = await finalReport(admin, 'Siaran dihentikan.');
    // A minute later (virtual) nothing more went out.
    const minuteLater = Date.now() + 60_000;
    await time.when(() => Date.now() >= minuteLater);
    const copies = users.reduce((sum, user) => sum + copiesOf(w, user), 0) + copiesOf(w, admin);
    expect(w.telegram.callsTo('copyMessage').filter((call) => call.at > told.sentAt)).toHaveLength(0);
    expect(copies).toBeLessThan(users.length / 2);
    expect(report.text).toContain(`Terkirim: ${copies}`);
    expect(await w.app.db.broadcasts.running()).toBeUndefined();
  }, 60_000);

  it('at the ceiling (30 per second) a reply still goes out within 200 ms: it takes the next slot before the broadcast, and meets no 429', async () => {
    const { admin, users, blocked } = await start();
    const w = world!;
    await send(admin);
    await time.when(() => delivered() >= 300);
    const from = w.telegram.calls.length;
    const waits: number[] = [];
    for (const user of users.slice(10, 40).filter((candidate) => !blocked.has(candidate.id))) {
      const asked = time.elapsed();
      await time.until(w.telegram.waitForBotMessage(user, { after: user.send('/start'), where: (m) => m.method !== 'copyMessage' }));
      waits.push(time.elapsed() - asked);
    }
    const refused = w.telegram.calls.slice(from).filter((call) => call.status === 429 && call.method !== 'copyMessage');
    expect(
      refused.map((call) => `${call.method} ${JSON.stringify(call.params.chat_id)} ${JSON.stringify(call.response).slice(0, 120)}`),
    ).toEqual([]);
    expect(Math.max(...waits), `replies took ${waits.join(', ')} virtual ms`).toBeLessThan(200);
    expect((await w.app.deps.broadcasts.running())?.status).toBe('running');
    await time.until(w.app.deps.broadcasts.cancel());
  }, 60_000);

  it("answers a user's /saldo and /harga within 2 s while hundreds of copies wait, and refuses every admin command to a non-admin", async () => {
    const { admin, users } = await start();
    const w = world!;
    await send(admin);
    await time.when(() => delivered() >= 300);
    for (const [user, command] of [
      [users[3]!, '/saldo'],
      [users[4]!, '/harga'],
    ] as const) {
      const asked = time.elapsed();
      const answer = await time.until(
        w.telegram.waitForBotMessage(user, { after: user.send(command), where: (m) => m.method !== 'copyMessage' }),
      );
      expect(time.elapsed() - asked, `${command} answered after ${time.elapsed() - asked} virtual ms`).toBeLessThan(2000);
      expect(answer.text, command).toContain('reseller');
      expect((await w.app.deps.broadcasts.running())?.sent ?? 0, 'hundreds still queued').toBeLessThan(users.length - 500);
    }

    const intruder = users[5]!;
    const unknown = await time.until(w.telegram.waitForBotMessage(intruder, { after: intruder.send('/nosuchcommand') }));
    for (const command of [
      ...adminCommands.map((name) => `/${name}`),
      '/broadcast halo',
      `/user ${adminId}`,
      `/ban ${users[6]!.id}`,
      `/unban ${users[6]!.id}`,
    ]) {
      const answer = await time.until(w.telegram.waitForBotMessage(intruder, { after: intruder.send(command) }));
      expect(answer.text, command).toBe(unknown.text);
    }
    // The broadcast goes on, nobody was banned.
    expect((await w.app.deps.broadcasts.running())?.status).toBe('running');
    expect((await w.app.db.users.get(users[6]!.id))?.ban).toBeUndefined();
    await time.until(w.app.deps.broadcasts.cancel());
  }, 60_000);
});
