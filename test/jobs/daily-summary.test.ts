/**
 * The opt-in daily summary: chosen with /ringkasan, queued through the outbox at the chosen WIB
 * hour with yesterday's report, once per day per user, also across a restart. The clock is
 * injected (the app's `now`), so no test waits for an hour.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser } from '../helpers/seed-transactions.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

// 06:30 WIB on Tuesday 3 November 2026.
const start = Date.parse('2026-11-02T23:30:00.000Z');
const hourMs = 3600_000;

describe('daily summary (/ringkasan)', () => {
  let world: TestWorld;
  let t = start;
  beforeEach(async () => {
    t = start;
    world = await startWorld({ app: { now: () => new Date(t) } });
  });
  afterEach(async () => {
    await world.stop();
  });

  const summaries = async (user: EmulatedUser) =>
    (await world.app.db.outbox.list()).filter((item) => item.chatId === user.id && item.kind === 'daily-summary');

  /** Opens the summary menu with `command`, taps `button`, and resolves the menu's text once it contains `expected`. */
  async function chooseHour(user: EmulatedUser, command: string, button: string, expected: string): Promise<void> {
    const menu = await world.telegram.waitForBotMessage(user, { after: user.send(command) });
    user.tap(menu, button);
    await world.telegram.waitFor(() => (world.telegram.botMessages(user).at(-1)!.text ?? '').includes(expected));
  }

  it("sends yesterday's report once at the chosen hour, not again after a restart, and again the next day", async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await world.app.db.transactions.createMany([
      {
        refId: 'yesterday-1',
        userId: budi.id,
        chatId: budi.id,
        code: 'TSEL10',
        productName: 'Telkomsel 10.000',
        target: '081234567890',
        price: 10_500,
        // 23:30 WIB on Monday 2 November: yesterday's last sale
        createdAt: '2026-11-02T16:30:00.000Z',
      },
    ]);
    await world.app.db.transactions.settle('yesterday-1', { status: 'Sukses' });
    const menu = await world.telegram.waitForBotMessage(budi, { after: budi.send('/ringkasan') });
    expect(menu.text).toContain('Ringkasan harian');
    expect(menu.buttons.flat()).toContain('07:00');
    expect(menu.buttons.flat()).toContain('Matikan');
    budi.tap(menu, '07:00');
    await world.telegram.waitFor(() => (world.telegram.botMessages(budi).at(-1)!.text ?? '').includes('07:00 WIB'));
    expect((await world.app.db.users.get(budi.id))?.dailySummary?.hour).toBe(7);

    expect(await world.app.summaries.runOnce()).toBe(0);
    t += hourMs / 2; // 07:00 WIB
    expect(await world.app.summaries.runOnce()).toBe(1);
    expect(await world.app.summaries.runOnce()).toBe(0);
    expect(await summaries(budi)).toHaveLength(1);

    await world.restart();
    t += 5 * 60_000;
    expect(await world.app.summaries.runOnce()).toBe(0);
    expect(await summaries(budi)).toHaveLength(1);

    world.app.outbox.start();
    const isSummary = (text: string | undefined) => (text ?? '').includes('Ringkasan harian · laporan kemarin');
    await world.telegram.waitFor(() => world.telegram.botMessages(budi).some((m) => isSummary(m.text)));
    const delivered = world.telegram.botMessages(budi).find((m) => isSummary(m.text))!;
    expect(delivered.text).toContain('2026-11-02 s.d. 2026-11-02');
    expect(delivered.text).toContain('Transaksi: 1');
    expect(delivered.buttons).toEqual([['📈 Grafik']]);

    t += 24 * hourMs; // 07:05 WIB the next day
    expect(await world.app.summaries.runOnce()).toBe(1);
  });

  it('sends nothing once opted out, nor for an hour not reached yet; the first summary never repeats an hour already past', async () => {
    const ani = await seedConnectedUser(world, 'Ani');
    // 06:30 WIB: 05:00 has passed today, so the first summary comes tomorrow.
    await chooseHour(ani, '/ringkasan', '05:00', 'pukul 05:00 WIB');
    expect(await world.app.summaries.runOnce()).toBe(0);
    t += 23 * hourMs; // 05:30 WIB tomorrow
    expect(await world.app.summaries.runOnce()).toBe(1);

    await chooseHour(ani, '/summary', 'Matikan', 'tidak aktif');
    expect((await world.app.db.users.get(ani.id))?.dailySummary).toBeUndefined();
    t += 24 * hourMs;
    expect(await world.app.summaries.runOnce()).toBe(0);
  });

  it('is offered from the /laporan menu, in English for an English user', async () => {
    const ann = await seedConnectedUser(world, 'Ann', { languageCode: 'en' });
    const menu = await world.telegram.waitForBotMessage(ann, { after: ann.send('/report') });
    expect(menu.buttons.at(-1)).toEqual(['🗓 Daily summary']);
    const sent = world.telegram.botMessages(ann).length;
    ann.tap(menu, '🗓 Daily summary');
    await world.telegram.waitFor(() => world.telegram.botMessages(ann).length > sent);
    const picker = world.telegram.botMessages(ann).at(-1)!;
    expect(picker.text).toContain('Daily summary');
    expect(picker.buttons.flat()).toContain('Off');
  });
});
