/**
 * /broadcast at scale, in virtual time (test/helpers/virtual-time.ts): 2,000 users, the emulator
 * enforcing Telegram's 30 messages per second (429 with retry_after beyond it), every 20th user
 * having blocked the bot. A broadcast that takes 67 s of real time runs here in a few seconds,
 * its pace measured in exact virtual seconds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import { useVirtualTime, type VirtualTime } from '../helpers/virtual-time.ts';
import { adminId, copiesOf, formatted, startPhotoBroadcast, worldWithUsers, type Audience } from '../helpers/broadcast.ts';

const rate = 30;

describe('/broadcast to 2,000 users at 30 messages per second (virtual time)', () => {
  let world: TestWorld | undefined;
  let time: VirtualTime;
  afterEach(async () => {
    await world?.stop();
    world = undefined;
  });

  /** The world with 2,000 users, Telegram's limits enforced, BROADCAST_RATE=30. */
  async function start(): Promise<Audience> {
    time = useVirtualTime();
    let audience: Audience;
    [world, audience] = await worldWithUsers(2000, {
      time,
      env: { BROADCAST_RATE: String(rate) },
      telegram: { enforceLimits: { globalPerSecond: rate, perChatPerSecond: 1 } },
    });
    return audience;
  }

  it('copies a photo with its caption and URL button to every active user exactly once at 90% of the rate or more, and skips and marks the blocked ones', async () => {
    console.log('START real', process.uptime());
    const { admin, users, blocked } = await start();
    console.log('WORLD real', process.uptime());
    const w = world!;
    const picker = await startPhotoBroadcast(w, admin, time);
    expect(picker.text).toContain(`${formatted(users.length + 1)} pengguna aktif`);
    const startedAt = time.elapsed();
    console.log('TAP real', process.uptime());
    admin.tap(picker, '📣 Kirim');
    const report = await time.when(() => w.telegram.botMessages(admin).find((m) => m.text?.includes('Siaran selesai')), {
      limitMs: 200_000,
      message: 'no final report',
    }).catch((e: unknown) => { console.log(w.logs.slice(-12).join('\n'), w.telegram.calls.slice(-8).map((c) => `${c.method} ${c.at} ${c.status} ${JSON.stringify(c.params).slice(0, 80)}`), w.telegram.queue.length, w.telegram.polling, Date.now(), w.app.store.broadcasts.running()); throw e; });
    const seconds = (time.elapsed() - startedAt) / 1000;
    console.log('DONE real', process.uptime());
    const copies = w.telegram.callsTo('copyMessage');
    const perSecond = new Map<number, number>();
    for (const c of copies) perSecond.set(Math.floor((c.at - copies[0]!.at) / 1000), (perSecond.get(Math.floor((c.at - copies[0]!.at) / 1000)) ?? 0) + 1);
    console.log(seconds, (copies.at(-1)!.at - copies[1]!.at) / 1000, [...perSecond.entries()].join(' '), w.telegram.calls.filter((c) => c.status === 429).map((c) => `${c.method} ${c.at - copies[0]!.at}`));

    const active = users.length - blocked.size + 1;
    expect(report.text).toContain(`Terkirim: ${formatted(active)} · diblokir: ${blocked.size} · gagal: 0`);
    for (const user of users) expect(copiesOf(w, user), `user ${user.id}`).toBe(blocked.has(user.id) ? 0 : 1);
    expect(copiesOf(w, admin)).toBe(1);
    for (const id of blocked) expect(w.app.store.users.get(id)?.active).toBe(false);
    expect(picker.text).toContain('Siaran selesai');
    // A later broadcast leaves out who blocked the bot.
    expect(await time.until(w.app.deps.broadcasts.recipients({ kind: 'all' }))).toHaveLength(active);

    // The pace: at least 90% of BROADCAST_RATE, never above Telegram's 30 per second.
    expect(active / seconds, `${active} copies in ${seconds} virtual s`).toBeGreaterThanOrEqual(0.9 * rate);
    expect(w.telegram.maxSendsInWindow('all', 1000)).toBeLessThanOrEqual(30);
    // Only the admin's chat, where the preview, the picker and their copy came within a second, met a 429.
    expect(w.telegram.calls.filter((call) => call.status === 429 && call.params.chat_id !== adminId)).toHaveLength(0);
  }, 20_000);
});

