import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, sandboxTransactions, waitForResult, waitForSummary } from '../helpers/buy.ts';

describe('quick-buy and the once-only confirm', () => {
  let world: TestWorld;
  beforeEach(async () => {
    // Purchases settle at creation: Sukses with an SN (a target ending 9999 stays Pending).
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
  });
  afterEach(async () => {
    await world.stop();
  });

  it('/beli CODE TARGET goes straight to the summary', async () => {
    const budi = await buyer(world, 'Budi', { via: 'connect' });
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    expect(summary.text).toContain('TSEL10');
    expect(summary.text).toContain('081234567890');
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    expect(sandboxTransactions(world).map((tx) => [tx.code, tx.target])).toEqual([['TSEL10', '081234567890']]);
  });

  it('a purchase that succeeds at once shows its result with 🔁 Beli lagi, 📋 Salin SN and 🧾 Struk pelanggan', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Sukses');
    const sn = sandboxTransactions(world)[0]?.sn ?? 'missing';
    expect(result.text).toContain(sn);
    expect(result.buttons).toEqual([['🔁 Beli lagi', '📋 Salin SN'], ['🧾 Struk pelanggan']]);
    expect(result.inlineKeyboard?.inline_keyboard.flat()).toContainEqual({ text: '📋 Salin SN', copy_text: { text: sn } });
  });

  it('a second quick-buy before the first is confirmed says which summary it replaced; the new one buys', async () => {
    const budi = await buyer(world);
    const first = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    const second = await waitForSummary(world, budi, budi.send('XL10.081911112222'));
    const between = world.telegram.botMessages(budi).filter((m) => m.messageId > first.messageId && m.messageId < second.messageId);
    const note = between.map((m) => m.text ?? '').join('\n');
    expect(note).toContain('TSEL10');
    expect(note).toContain('081234567890');
    expect(note).toMatch(/tidak ada yang dibeli/i);
    expect(first.buttons).toEqual([]);
    budi.tap(second, '✅ Konfirmasi');
    await waitForResult(world, budi, second, 'Sukses');
    expect(sandboxTransactions(world).map((tx) => tx.code)).toEqual(['XL10']);
  });

  it('with /jual rules the result shows cost → sell and the margin, as the summary did', async () => {
    const budi = await buyer(world);
    await world.app.db.users.upsert({ id: budi.id, firstName: 'Budi' });
    await world.app.db.users.update(budi.id, {
      sellRules: { default: { kind: 'fixed', amount: 1000 }, step: 1, brands: {}, products: {} },
    });
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    expect(summary.text).toContain('Rp 10.450 → Rp 11.450 (+1.000)');
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Sukses');
    expect(result.text).toContain('Modal → jual: Rp 10.450 → Rp 11.450 (+1.000)');
  });

  it('a multi-line result gives each Sukses line its 📋 SN and 🧾 Struk buttons; the customer receipt opens', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890\nTSEL10.081200000000\nXL10.081911112222'));
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Hasil 3 transaksi');
    expect(result.buttons).toEqual([
      ['📋 SN 1', '🧾 Struk 1'],
      ['📋 SN 3', '🧾 Struk 3'],
    ]);
    const sn = sandboxTransactions(world).find((tx) => tx.target === '081911112222')?.sn ?? 'missing';
    expect(result.inlineKeyboard?.inline_keyboard.flat()).toContainEqual({ text: '📋 SN 3', copy_text: { text: sn } });
    budi.tap(result, '🧾 Struk 3');
    const struk = await world.telegram.waitForBotMessage(budi, { after: result, textIncludes: 'STRUK' });
    expect(struk.text).toContain('XL 10.000');
    expect(struk.text).toMatch(/0819.*2222/);
  });

  it('🔁 Beli lagi asks the target with a ❌ Batal that ends the question and buys nothing', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Sukses');
    budi.tap(result, '🔁 Beli lagi');
    const question = await world.telegram.waitForBotMessage(budi, { after: result, textIncludes: 'Beli lagi' });
    expect(question.buttons).toEqual([['📱 081234567890'], ['✏️ Tujuan lain', '❌ Batal']]);
    budi.tap(question, '❌ Batal');
    await world.telegram.waitFor(() => question.buttons.length === 0);
    expect(question.text).toContain('Dibatalkan');
    expect(sandboxTransactions(world)).toHaveLength(1);
  });

  it('a plain CODE.TARGET message buys too (phone normalised)', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('tsel10.6281234567890'));
    expect(summary.text).toContain('081234567890');
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    expect(sandboxTransactions(world).map((tx) => [tx.code, tx.target])).toEqual([['TSEL10', '081234567890']]);
  });

  it('several lines: one summary with the total, one confirmation, one transaction per line', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890\nXL10.081398765432\nML86.12345678 (1234)'));
    expect(summary.text).toContain('3 transaksi');
    // 10.450 + 10.200 + 21.800
    expect(summary.text).toContain('Total: Rp 42.450');
    expect(summary.text).toContain('12345678 (1234)');
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Hasil 3 transaksi');
    expect(result.text?.match(/Sukses/g)).toHaveLength(3);
    expect(
      sandboxTransactions(world)
        .map((tx) => tx.target)
        .sort(),
    ).toEqual(['081234567890', '081398765432', '12345678 (1234)']);
    expect(world.telegram.botMessages(budi).filter((m) => m.buttons.flat().includes('✅ Konfirmasi'))).toHaveLength(0);
  });

  it('lists unknown, unavailable and badly targeted lines and still buys the rest', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(
      world,
      budi,
      budi.send('TSEL10.081234567890\nNOPE1.081234567890\nTSEL150.081234567890\nXL10.0812\nasal ketik'),
    );
    expect(summary.text).toContain('Baris 2');
    expect(summary.text).toContain('NOPE1');
    expect(summary.text).toContain('Baris 3');
    expect(summary.text).toContain('gangguan');
    expect(summary.text).toContain('Baris 4');
    expect(summary.text).toContain('bukan nomor HP');
    expect(summary.text).toContain('Baris 5');
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    expect(sandboxTransactions(world).map((tx) => tx.code)).toEqual(['TSEL10']);
  });

  it('buys 20 lines at once, the most one message may carry', async () => {
    const budi = await buyer(world);
    const lines = Array.from({ length: 20 }, (_, i) => `GIWELKIN.81234${String(i + 10).padStart(3, '0')}`).join('\n');
    const summary = await waitForSummary(world, budi, budi.send(lines));
    expect(summary.text).toContain('20 transaksi');
    expect(summary.text).toContain('Total: Rp 1.440.000');
    expect(summary.text).toContain('kurang dari total');
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Hasil 20 transaksi');
    // Rp 1.000.000 pays for 13 of them; the provider refuses the rest, each refusal explained.
    expect(result.text?.match(/Sukses/g)).toHaveLength(13);
    expect(result.text?.match(/Ditolak/g)).toHaveLength(7);
    expect(result.text).toContain('tidak cukup');
    expect(sandboxTransactions(world)).toHaveLength(13);
    expect(await world.app.db.transactions.listByUser(budi.id, { limit: 30 })).toHaveLength(20);
  });

  it('refuses more than 20 lines with a clear message', async () => {
    const budi = await buyer(world);
    const lines = Array.from({ length: 21 }, (_, i) => `TSEL10.0812345678${String(i).padStart(2, '0')}`).join('\n');
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send(lines) });
    expect(reply.text).toContain('Maksimal 20 baris');
    expect(reply.text).toContain('21');
    expect(sandboxTransactions(world)).toHaveLength(0);
  });

  it('a double tap, and a re-sent callback after completion, buy exactly once', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    const first = budi.tap(summary, '✅ Konfirmasi');
    const second = budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    const answer = await world.telegram.waitForCallbackAnswer(second);
    expect(answer.text).toContain('sudah dikonfirmasi');
    // The same update delivered again (a replay), and another tap from a client that still shows the button.
    const answered = world.telegram.callsTo('answerCallbackQuery').length;
    world.telegram.pushUpdate({ callback_query: first });
    world.telegram.pushUpdate({ callback_query: { ...first, id: `${first.id}-again` } });
    await world.telegram.waitFor(() => world.telegram.callsTo('answerCallbackQuery').length >= answered + 2);
    expect(sandboxTransactions(world)).toHaveLength(1);
    expect(await world.app.db.transactions.listByUser(budi.id)).toHaveLength(1);
  });

  it('the same code and target within a minute needs "Ya, beli lagi"', async () => {
    const budi = await buyer(world);
    const first = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    budi.tap(first, '✅ Konfirmasi');
    const firstResult = await waitForResult(world, budi, first, 'Sukses');

    const second = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    budi.tap(second, '✅ Konfirmasi');
    // A double tap on the summary's Confirm does not answer the question.
    const doubleTap = budi.tap(second, '✅ Konfirmasi');
    const question = await world.telegram.waitForBotMessage(budi, { after: second, textIncludes: 'baru saja' });
    expect(question.buttons).toEqual([['✅ Ya, beli lagi', '❌ Batal']]);
    expect((await world.telegram.waitForCallbackAnswer(doubleTap)).text).toContain('Jawab dulu');
    expect(sandboxTransactions(world)).toHaveLength(1);

    budi.tap(question, '✅ Ya, beli lagi');
    await waitForResult(world, budi, question, 'Sukses');
    expect(sandboxTransactions(world)).toHaveLength(2);
    expect(firstResult.text).toContain('Sukses');
  });

  it('another target, or the same line twice in one message, is handled as such', async () => {
    const budi = await buyer(world);
    const first = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    budi.tap(first, '✅ Konfirmasi');
    await waitForResult(world, budi, first, 'Sukses');
    // Another target: no question.
    const other = await waitForSummary(world, budi, budi.send('TSEL10.081298765432\nXL10.081311112222\nXL10.081311112222'));
    budi.tap(other, '✅ Konfirmasi');
    // The same line twice in one message is asked about.
    const question = await world.telegram.waitForBotMessage(budi, { after: other, textIncludes: 'baru saja' });
    expect(question.text).toContain('lebih dari sekali di pesan ini');
    expect(question.text).not.toContain('081298765432');
    budi.tap(question, '❌ Batal');
    await world.telegram.waitForBotMessage(budi, { after: question, textIncludes: 'Tidak ada yang dibeli' });
    expect(sandboxTransactions(world)).toHaveLength(1);
  });

  it('a new quick-buy message replaces an open summary, whose buttons go away', async () => {
    const budi = await buyer(world);
    const first = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    const second = await waitForSummary(world, budi, budi.send('XL10.081234567890'));
    expect(first.buttons).toEqual([]);
    budi.tap(second, '✅ Konfirmasi');
    await waitForResult(world, budi, second, 'Sukses');
    expect(sandboxTransactions(world).map((tx) => tx.code)).toEqual(['XL10']);
  });

  it('works in private chats only and leaves ordinary chatter to the help answer', async () => {
    const budi = await buyer(world);
    const group = world.telegram.createGroup({ title: 'Konter', members: [budi] });
    const inGroup = await world.telegram.waitForBotMessage(group, { after: budi.send('/beli TSEL10 081234567890', { chat: group }) });
    expect(inGroup.text).toContain('chat pribadi');
    const chatter = await world.telegram.waitForBotMessage(budi, { after: budi.send('halo, apa kabar?') });
    expect(chatter.text).toContain('/help');
    expect(sandboxTransactions(world)).toHaveLength(0);
  });

  it('asks a user who is not connected to connect first', async () => {
    const siti = world.telegram.createUser({ firstName: 'Siti', languageCode: 'id' });
    const reply = await world.telegram.waitForBotMessage(siti, { after: siti.send('TSEL10.081234567890') });
    expect(reply.text).toContain('/connect');
  });
});
