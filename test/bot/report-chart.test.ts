import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { photoBytes } from '../helpers/qr-image.ts';
import { pngInfo } from '../helpers/png.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';
import { periodRange } from '../../src/services/export-periods.ts';
import { chartSize } from '../../src/render/chart.ts';

async function seedSukses(world: TestWorld, user: EmulatedUser, price: number): Promise<void> {
  const ref = await seedPurchase(world, user, { price });
  await world.app.db.transactions.settle(ref, { status: 'Sukses' });
}

describe('/laporan: the 📈 chart of daily turnover and margin', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('offers a 📈 Grafik button under the report; tapping it sends the PNG chart of the period', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await seedSukses(world, budi, 10_500);
    await seedSukses(world, budi, 5_600);
    const failed = await seedPurchase(world, budi, { price: 99_000 });
    await world.app.db.transactions.settle(failed, { status: 'Gagal' });
    const week = periodRange('week', new Date());

    const report = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/laporan ${week.from} ${week.to}`) });
    expect(report.buttons).toEqual([['📈 Grafik']]);
    const sent = world.telegram.botMessages(budi).length;
    budi.tap(report, '📈 Grafik');
    await world.telegram.waitFor(() => world.telegram.botMessages(budi).length > sent);
    const chart = world.telegram.botMessages(budi).at(-1)!;
    expect(chart.message.caption).toContain(`${week.from} s.d. ${week.to}`);
    // The series of the chart sums to the Sukses transactions (no sell prices stored: turnover is the cost).
    expect(chart.message.caption).toContain('Omzet Rp 16.100');
    expect(chart.message.caption).toContain('Margin Rp 0');
    expect(pngInfo(await photoBytes(world, chart))).toEqual(chartSize);
  });

  it('speaks English to an English user, and offers no chart for an empty period or a range over 92 days', async () => {
    const ann = await seedConnectedUser(world, 'Ann', { languageCode: 'en' });
    await seedSukses(world, ann, 10_500);
    const today = periodRange('today', new Date()).from;
    const report = await world.telegram.waitForBotMessage(ann, { after: ann.send(`/report ${today} ${today}`) });
    expect(report.buttons).toEqual([['📈 Chart']]);
    const sent = world.telegram.botMessages(ann).length;
    ann.tap(report, '📈 Chart');
    await world.telegram.waitFor(() => world.telegram.botMessages(ann).length > sent);
    const chart = world.telegram.botMessages(ann).at(-1)!;
    expect(chart.message.caption).toContain(`${today} to ${today}`);
    expect(chart.message.caption).toContain('Turnover Rp 10.500');

    const long = await world.telegram.waitForBotMessage(ann, { after: ann.send(`/report 2020-01-01 ${today}`) });
    expect(long.text).toContain('Success: 1');
    expect(long.buttons).toEqual([]);
    const empty = await world.telegram.waitForBotMessage(ann, { after: ann.send('/report 2020-01-01 2020-01-02') });
    expect(empty.buttons).toEqual([]);
  });
});
