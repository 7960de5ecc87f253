/**
 * What the user sees when purchases settle after the bot answered "in process": one full receipt
 * per transaction (the in-process message, edited), a short new message that pings, the summary
 * of a multi-line purchase updated line by line, and the receipt's buttons.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import { buyPending, recheck, startSettlementWorld, testClock } from '../helpers/settlement.ts';
import { buyer, sandboxTransactions, waitForSummary } from '../helpers/buy.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

/** The sandbox settles only when the test says so. */
const manual = { sandbox: { reseller: { settleAfterChecks: 1_000_000, settleAfterMs: 3_600_000 } } };

const receipts = (world: TestWorld, user: EmulatedUser) =>
  world.telegram.botMessages(user).filter((m) => m.text?.includes('Struk transaksi'));
const after = (world: TestWorld, user: EmulatedUser, message: EmulatedMessage) =>
  world.telegram.botMessages(user).filter((m) => m.messageId > message.messageId);
const copyTexts = (message: EmulatedMessage) =>
  (message.inlineKeyboard?.inline_keyboard.flat() ?? []).flatMap((b) => ('copy_text' in b && b.copy_text ? [b.copy_text.text] : []));

describe('settlement receipts', () => {
  let world: TestWorld;
  const clock = testClock();
  afterEach(async () => {
    await world.stop();
  });

  it('a single purchase: the in-process message becomes the one receipt (with buttons), a one-line reply pings, the group is told', async () => {
    world = await startSettlementWorld(clock, manual);
    const budi = await buyer(world);
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(budi, '/linkgroup', { chat: group }),
      textIncludes: 'menerima notifikasi',
    });
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    const refId = sandboxTransactions(world)[0]?.refId ?? '';
    world.sandbox.reseller.settle(refId, 'Sukses');
    await recheck(world, clock);
    await world.app.outbox.drain();
    const sn = sandboxTransactions(world)[0]?.sn ?? 'missing';

    await world.telegram.waitFor(() => pending.text?.includes('Transaksi sukses') === true);
    expect(pending.text).toContain('Struk transaksi');
    expect(pending.text).toContain(sn);
    expect(pending.buttons.flat()).toEqual(expect.arrayContaining(['🔁 Beli lagi', '📋 Salin SN', '🧾 Struk pelanggan']));
    expect(copyTexts(pending)).toEqual([sn]);

    const ping = await world.telegram.waitForBotMessage(budi, { after: pending, textIncludes: 'Sukses' });
    expect(ping.text?.split('\n')).toHaveLength(1);
    expect(ping.text).toContain('Telkomsel 10.000');
    expect(ping.text).toContain('0812****7890');
    expect(ping.message.reply_to_message?.message_id).toBe(pending.messageId);
    expect(after(world, budi, pending)).toHaveLength(1);
    expect(receipts(world, budi)).toHaveLength(1);

    const groupPost = await world.telegram.waitForBotMessage(group, { textIncludes: 'Transaksi sukses' });
    expect(groupPost.text).toContain('0812****7890');

    // Later passes change nothing.
    await recheck(world, clock, 2);
    await world.app.outbox.drain();
    expect(after(world, budi, pending)).toHaveLength(1);
    expect(receipts(world, budi)).toHaveLength(1);
  });

  it('a multi-line purchase: its summary turns each line Sukses/Gagal as it settles, also across a restart, with one ping per line', async () => {
    world = await startSettlementWorld(clock, manual);
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890\nTSEL10.081234567891\nTSEL10.081200000000'));
    budi.tap(summary, '✅ Konfirmasi');
    const result = await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'Hasil 3 transaksi' });
    expect(result.text?.match(/Diproses/g)).toHaveLength(3);
    await world.idle();
    const refOf = (target: string) => sandboxTransactions(world).find((tx) => tx.target === target)?.refId ?? '';
    const lines = () => (result.text ?? '').split('\n').filter((line) => /^\d\. /.test(line));

    world.sandbox.reseller.settle(refOf('081234567891'), 'Sukses');
    await recheck(world, clock);
    await world.app.outbox.drain();
    await world.telegram.waitFor(() => lines()[1]?.includes('Sukses'));
    expect(lines()[0]).toContain('Diproses');
    expect(lines()[2]).toContain('Diproses');
    const sn = sandboxTransactions(world).find((tx) => tx.target === '081234567891')?.sn ?? 'missing';
    expect(result.text).toContain(sn);
    // The settled Sukses line gets its own copy and customer-receipt buttons, numbered as its line.
    expect(result.buttons).toEqual([['📋 SN 2', '🧾 Struk 2']]);

    await world.restart();
    // Two at once: the summary ends with both.
    world.sandbox.reseller.settle(refOf('081234567890'), 'Sukses');
    world.sandbox.reseller.settle(refOf('081200000000'), 'Gagal');
    await recheck(world, clock);
    await world.app.outbox.drain();
    await world.telegram.waitFor(() => lines()[0]?.includes('Sukses') && lines()[2]?.includes('Gagal'));
    expect(lines()[1]).toContain('Sukses');
    expect(result.text).not.toContain('Diproses');
    expect(result.text).not.toContain('akan saya kabari');
    expect(result.buttons).toEqual([
      ['📋 SN 1', '🧾 Struk 1'],
      ['📋 SN 2', '🧾 Struk 2'],
    ]);

    // One short ping per settled line, each a reply to the summary; no second copy of anything.
    const pings = after(world, budi, result);
    expect(pings).toHaveLength(3);
    for (const ping of pings) {
      expect(ping.text?.split('\n')).toHaveLength(1);
      expect(ping.message.reply_to_message?.message_id).toBe(result.messageId);
    }
    expect(pings.map((p) => p.text).join('\n')).toMatch(/0812\*\*\*\*0000.*Gagal/);
  });

  it('🔁 Beli lagi on a receipt buys the same product: the old number as a button, or another one', async () => {
    world = await startSettlementWorld(clock, manual);
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    world.sandbox.reseller.settle(sandboxTransactions(world)[0]?.refId ?? '', 'Sukses');
    await recheck(world, clock);
    await world.app.outbox.drain();
    await world.telegram.waitFor(() => pending.buttons.flat().includes('🔁 Beli lagi'));

    budi.tap(pending, '🔁 Beli lagi');
    const question = await world.telegram.waitForBotMessage(budi, { after: pending, where: (m) => m.buttons.flat().length > 0 });
    expect(question.text).toContain('Telkomsel 10.000');
    expect(question.buttons.flat()).toEqual(expect.arrayContaining(['📱 081234567890', '✏️ Tujuan lain']));
    budi.tap(question, '📱 081234567890');
    const summary = await waitForSummary(world, budi, question);
    expect(summary.text).toContain('TSEL10');
    expect(summary.text).toContain('081234567890');
    budi.tap(summary, '❌ Batal');
    await world.idle();

    budi.tap(question, '✏️ Tujuan lain');
    const ask = await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'nomor' });
    expect(ask.text).toContain('Telkomsel 10.000');
    const other = await waitForSummary(world, budi, budi.send('081398765432'));
    expect(other.text).toContain('TSEL10');
    expect(other.text).toContain('081398765432');
  });
});
