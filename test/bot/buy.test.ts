import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld, type TestWorldOptions } from '../helpers/app.ts';
import { buyer, codeTexts, eventually, sandboxTransactions, waitForResult, waitForSummary } from '../helpers/buy.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';

/** Purchases settle at creation: Sukses with an SN, `…0000` Gagal, `…9999` stays Pending. */
const instant: TestWorldOptions = { sandbox: { reseller: { instant: true } } };

describe('buy conversation (/beli)', () => {
  let world: TestWorld;
  const start = async (options: TestWorldOptions = instant) => {
    world = await startWorld(options);
    return world;
  };
  afterEach(async () => {
    await world.stop();
  });

  it('asks for the code and the target, normalises +62, shows a summary and buys once with the SN to copy', async () => {
    await start();
    const budi = await buyer(world, 'Budi', { via: 'connect' });
    const askCode = await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli'), textIncludes: 'kode produk' });
    expect(askCode.text).toContain('/harga');

    const askTarget = await world.telegram.waitForBotMessage(budi, { after: budi.send('tsel10'), textIncludes: 'nomor HP' });
    expect(askTarget.text).toContain('Telkomsel 10.000');

    const summary = await waitForSummary(world, budi, budi.send('+62 812-3456-7890'));
    expect(summary.text).toContain('Telkomsel 10.000 (TSEL10)');
    expect(summary.text).toContain('081234567890');
    expect(summary.text).toContain('Rp 10.450');
    expect(summary.text).toContain('Rp 1.000.000');
    expect(summary.buttons).toEqual([['✅ Konfirmasi', '❌ Batal']]);
    expect(sandboxTransactions(world)).toHaveLength(0);

    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Sukses');
    const [tx] = sandboxTransactions(world);
    expect(sandboxTransactions(world)).toHaveLength(1);
    expect(tx).toMatchObject({ code: 'TSEL10', target: '081234567890', status: 'Sukses' });
    expect(codeTexts(result)).toContain(tx?.sn);
    expect(codeTexts(result)).toContain(tx?.refId);
    // The summary keeps its content, without buttons.
    expect(summary.buttons).toEqual([]);
    expect(summary.text).toContain('Dikonfirmasi');
    // Stored under the same ref id the provider received.
    const stored = await world.app.db.transactions.find(tx?.refId ?? '');
    expect(stored).toMatchObject({ status: 'Sukses', target: '081234567890', sn: tx?.sn, userId: budi.id });
  });

  it('says when a code is unknown and asks again, offering /harga', async () => {
    await start();
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli'), textIncludes: 'kode produk' });
    const unknown = await world.telegram.waitForBotMessage(budi, { after: budi.send('NOPE99') });
    expect(unknown.text).toContain('NOPE99');
    expect(unknown.text).toContain('tidak ada');
    expect(unknown.text).toContain('/harga');
    const askTarget = await world.telegram.waitForBotMessage(budi, { after: budi.send('XL10'), textIncludes: 'nomor HP' });
    expect(askTarget.text).toContain('XL 10.000');
  });

  it('refuses an unavailable product with its status, verbatim', async () => {
    await start();
    const budi = await buyer(world);
    const refused = await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli TSEL150'), textIncludes: 'tidak tersedia' });
    expect(refused.text).toContain('gangguan');
    world.sandbox.reseller.setProductStatus('XL10', 'Sedang Gangguan Pusat');
    await world.app.services.catalogue.forget(budi.id);
    const quick = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('/beli XL10 081234567890'),
      textIncludes: 'tidak tersedia',
    });
    expect(quick.text).toContain('Sedang Gangguan Pusat');
    expect(sandboxTransactions(world)).toHaveLength(0);
  });

  it('asks again for a phone number that is not plausible', async () => {
    await start();
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli TSEL10'), textIncludes: 'nomor HP' });
    const again = await world.telegram.waitForBotMessage(budi, { after: budi.send('12345') });
    expect(again.text).toContain('bukan nomor HP yang valid');
    await waitForSummary(world, budi, budi.send('081234567890'));
  });

  it('explains insufficient balance and the sandbox debits nothing', async () => {
    await start();
    const poor = resellerDemoAccounts.poor;
    const budi = await buyer(world, 'Budi', { account: poor });
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    expect(summary.text).toContain('Rp 5.000');
    expect(summary.text).toContain('kurang dari total');
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Ditolak');
    expect(result.text).toContain('tidak cukup');
    expect(result.text).toContain('Isi deposit');
    expect(sandboxTransactions(world, poor.apiId)).toHaveLength(0);
    expect(world.sandbox.reseller.balanceOf(poor.apiId)).toBe(5_000);
    const [stored] = await world.app.db.transactions.listByUser(budi.id);
    expect(stored).toMatchObject({ status: 'Rejected', message: 'insufficient_balance' });
  });

  it('tells an IP-blocked account which IP to whitelist', async () => {
    await start();
    const blocked = resellerDemoAccounts.blocked;
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    // The provider refuses even the check, so the credentials are stored as they would have been before the block.
    await world.app.db.credentials.save(budi.id, 'reseller', { apiId: blocked.apiId, apiKey: blocked.apiKey });
    const reply = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('/beli TSEL10 081234567890'),
      textIncludes: '203.0.113.7',
    });
    expect(reply.text).toContain('whitelist');
  });

  it('an IP block at purchase time: summary without balance, refusal naming the IP at the tap (the price check), nothing bought', async () => {
    await start();
    const account = { apiId: 'DEMO-LATER-BLOCKED', apiKey: 'demo-key-later-blocked', balance: 100_000 };
    world.sandbox.reseller.addAccount(account);
    const budi = await buyer(world, 'Budi', { account });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli TSEL10'), textIncludes: 'nomor HP' });
    world.sandbox.reseller.addAccount({ ...account, ipBlocked: true });
    const summary = await waitForSummary(world, budi, budi.send('081234567890'));
    expect(summary.text).toContain('tidak bisa dicek');
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, '203.0.113.7');
    expect(summary.text).toContain('Tidak dibeli');
    expect(result.buttons).toEqual([]);
    expect(sandboxTransactions(world, account.apiId)).toHaveLength(0);
  });

  it('a Pending purchase: the user will be messaged, the transaction stays Pending with its ref id', async () => {
    await start();
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234569999'));
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Sedang diproses');
    expect(result.text).toContain('kabari');
    const [sim] = sandboxTransactions(world);
    expect(sim?.status).toBe('Pending');
    // The result message is remembered, so that it can be edited when the transaction settles.
    await eventually(async () => (await world.app.db.transactions.get(sim?.refId ?? ''))?.pendingMessage !== undefined);
    const stored = await world.app.db.transactions.get(sim?.refId ?? '');
    expect(stored).toMatchObject({
      status: 'Pending',
      target: '081234569999',
      pendingMessage: { chatId: budi.id, messageId: result.messageId },
    });
  });

  it('a create that times out is "being processed", never failed, and keeps its ref id', async () => {
    await start();
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    world.sandbox.inject({ service: 'reseller', path: '/transaction', fault: { kind: 'timeout' } });
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Belum pasti');
    expect(result.text).not.toContain('Gagal');
    expect(result.text).toContain('tidak akan terbeli dua kali');
    expect(result.text).toContain('Jangan beli ulang');
    const sims = sandboxTransactions(world);
    expect(sims).toHaveLength(1);
    const stored = await world.app.db.transactions.get(sims[0]?.refId ?? '');
    expect(stored).toMatchObject({ status: 'Pending', message: 'unknown_outcome' });
    expect((await world.app.db.transactions.listOpen()).map((tx) => tx.refId)).toEqual([sims[0]?.refId]);
  });

  it('/batal ends the conversation and nothing is bought; the old summary cannot buy', async () => {
    await start();
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/batal'), textIncludes: 'Dibatalkan' });
    // /batal ends the conversation from outside: the summary's button is now stale.
    const tap = budi.tap(summary, '✅ Konfirmasi');
    const answer = await world.telegram.waitForCallbackAnswer(tap);
    expect(answer.text).toContain('tidak berlaku');
    await world.telegram.waitFor(() => summary.buttons.length === 0);
    expect(sandboxTransactions(world)).toHaveLength(0);
    expect(await world.app.db.transactions.listByUser(budi.id)).toHaveLength(0);
  });

  it('the Cancel button cancels; nothing is bought', async () => {
    await start();
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    budi.tap(summary, '❌ Batal');
    await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'Tidak ada yang dibeli' });
    expect(summary.buttons).toEqual([]);
    expect(sandboxTransactions(world)).toHaveLength(0);
  });

  it('survives a restart between the summary and the tap; the confirm then works once', async () => {
    await start();
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    // The conversation's state (with its confirmation id) is stored once the update is handled.
    await eventually(async () => (await world.app.db.conversations.read(`${budi.id}:${budi.id}`)) !== undefined);
    await world.restart();
    const first = budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    const answered = world.telegram.callsTo('answerCallbackQuery').length;
    world.telegram.pushUpdate({ callback_query: first });
    await world.telegram.waitFor(() => world.telegram.callsTo('answerCallbackQuery').length > answered);
    expect(sandboxTransactions(world)).toHaveLength(1);
  });

  it('survives restarts at the repeat question and at the PIN; what was answered before each restart still counts, and it buys once', async () => {
    // A loose flood limit: this test sends more updates in a row than a person would.
    await start({ ...instant, app: { floodLimit: { updates: 100, windowMs: 3000 } } });
    const budi = await buyer(world);
    await world.app.services.pin.set(budi.id, '1234');
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890\nTSEL10.081234567890'));
    budi.tap(summary, '✅ Konfirmasi');
    const question = await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'lebih dari sekali' });
    // Not an answer: a hint, and the question still waits (also after the restart).
    const hint = await world.telegram.waitForBotMessage(budi, { after: budi.send('halo'), textIncludes: 'Jawab dulu' });
    await world.restart();

    const yes = budi.tap(question, '✅ Ya, beli lagi');
    const askPin = await world.telegram.waitForBotMessage(budi, { after: hint, textIncludes: 'Kirim PIN' });
    // The same tap delivered again while the PIN is asked: "send the PIN first".
    const answered = world.telegram.callsTo('answerCallbackQuery').length;
    world.telegram.pushUpdate({ callback_query: yes });
    await world.telegram.waitFor(() => world.telegram.callsTo('answerCallbackQuery').length > answered);
    expect(world.telegram.callsTo('answerCallbackQuery').at(-1)?.params.text).toBe('Kirim PIN Anda dulu.');
    await world.restart();
    expect(sandboxTransactions(world)).toHaveLength(0);

    const pin = budi.send('1234');
    await waitForResult(world, budi, askPin, 'Sukses');
    expect(world.telegram.message(budi, pin.messageId)?.deleted).toBe(true);
    expect(sandboxTransactions(world)).toHaveLength(2);
    expect(await world.app.db.transactions.listByUser(budi.id)).toHaveLength(2);
    expect(summary.text).toContain('Dikonfirmasi');
  });

  describe('PIN', () => {
    it('asks for the PIN, deletes the message carrying it and buys on the right PIN', async () => {
      await start();
      const budi = await buyer(world);
      await world.app.services.pin.set(budi.id, '1234');
      const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
      budi.tap(summary, '✅ Konfirmasi');
      const ask = await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'PIN' });
      expect(sandboxTransactions(world)).toHaveLength(0);
      const wrong = budi.send('0000');
      const retry = await world.telegram.waitForBotMessage(budi, { after: wrong, textIncludes: 'PIN salah' });
      expect(retry.text).toContain('4');
      expect(sandboxTransactions(world)).toHaveLength(0);
      const right = budi.send('1234');
      await waitForResult(world, budi, ask, 'Sukses');
      expect(world.telegram.message(budi, wrong.messageId)?.deleted).toBe(true);
      expect(world.telegram.message(budi, right.messageId)?.deleted).toBe(true);
      expect(sandboxTransactions(world)).toHaveLength(1);
      expect(world.logs.join('\n')).not.toContain('"1234"');
    });

    it('the PIN question has ❌ Batal: tapping it cancels the purchase, nothing is bought', async () => {
      await start();
      const budi = await buyer(world);
      await world.app.services.pin.set(budi.id, '1234');
      const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
      budi.tap(summary, '✅ Konfirmasi');
      const ask = await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'PIN' });
      expect(ask.buttons).toEqual([['❌ Batal']]);
      budi.tap(ask, '❌ Batal');
      await world.telegram.waitForBotMessage(budi, { after: ask, textIncludes: 'dibatalkan' });
      // The flow is over: digits typed now are not taken as a PIN.
      await world.telegram.waitForBotMessage(budi, { after: budi.send('1234') });
      expect(sandboxTransactions(world)).toHaveLength(0);
    });

    it('locks after too many wrong PINs, says until when, and buys nothing', async () => {
      await start();
      const budi = await buyer(world);
      await world.app.services.pin.set(budi.id, '1234');
      for (let i = 0; i < 4; i++) await world.app.services.pin.verify(budi.id, '9999');
      const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
      budi.tap(summary, '✅ Konfirmasi');
      await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'PIN' });
      const locked = await world.telegram.waitForBotMessage(budi, { after: budi.send('0000'), textIncludes: 'dikunci sampai' });
      expect(locked.text).toMatch(/WIB/);
      expect(locked.text).toContain('Tidak ada yang dibeli');
      // While locked, a new purchase is refused right away.
      const again = await world.telegram.waitForBotMessage(budi, {
        after: budi.send('/beli TSEL10 081234567890'),
        textIncludes: 'dikunci sampai',
      });
      expect(again.buttons).toEqual([]);
      expect(sandboxTransactions(world)).toHaveLength(0);
      expect(await world.app.db.transactions.listByUser(budi.id)).toHaveLength(0);
    });
  });

  it('speaks English to an English user', async () => {
    await start();
    const jane = await buyer(world, 'Jane', { languageCode: 'en' });
    const summary = await waitForSummary(world, jane, jane.send('/buy TSEL10 081234567890'));
    expect(summary.text).toContain('Purchase summary');
    jane.tap(summary, '✅ Confirm');
    const result = await waitForResult(world, jane, summary, 'Success');
    expect(result.text).toContain('SN');
  });
});
