/**
 * Input a user may really send, read exactly: separators, case, invisible characters, amounts
 * and overlong words (issue 9, items 8, 9 and 11).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, sandboxTransactions, waitForResult, waitForSummary } from '../helpers/buy.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { marketplaceDemoAccounts, marketplaceDemoPurchaseCodes } from '../../tools/sandbox/marketplace.ts';

describe('what a reseller types, read exactly', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
  });
  afterEach(async () => {
    await world.stop();
  });

  it('HTML characters a user typed (<b>&) show literally: in their name, a target and a search word', async () => {
    const budi = await buyer(world, 'Budi <b>&');
    const welcome = await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    expect(welcome.text).toContain('Budi <b>&');
    const target = await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli TSEL10 0812<b>&amp;') });
    expect(target.text).toContain('0812<b>&amp;');
    const search = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga <b>&zzz') });
    expect(search.text).toContain('<b>&zzz');
  });

  it('TSEL10:081234567890 and TSEL10 081234567890 buy like TSEL10.081234567890, and the message is not deleted', async () => {
    const budi = await buyer(world);
    for (const text of ['TSEL10:081234567890', 'TSEL10 081298765432']) {
      const sent = budi.send(text);
      const summary = await waitForSummary(world, budi, sent);
      expect(summary.text).toContain('TSEL10');
      expect(world.telegram.callsTo('deleteMessage').filter((call) => call.params.message_id === sent.messageId)).toHaveLength(0);
      budi.tap(summary, '✅ Konfirmasi');
      await waitForResult(world, budi, summary, 'Sukses');
    }
    expect(
      sandboxTransactions(world)
        .map((tx) => tx.target)
        .sort(),
    ).toEqual(['081234567890', '081298765432']);
  });

  it('a zero-width space or a right-to-left override never reaches the provider: the summary shows what is sent', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('PLN20.1234\u200B5678901'));
    expect(summary.text).toContain('12345678901');
    expect(summary.text).not.toMatch(/\p{Cf}/u);
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');

    const reversed = await waitForSummary(world, budi, budi.send('/beli TSEL10 \u202E081234567890'));
    expect(reversed.text).not.toMatch(/\p{Cf}/u);
    budi.tap(reversed, '✅ Konfirmasi');
    await waitForResult(world, budi, reversed, 'Sukses');
    expect(
      sandboxTransactions(world)
        .map((tx) => tx.target)
        .sort(),
    ).toEqual(['081234567890', '12345678901']);
  });

  it('a bare phone number, CODE.letters and "pulsa tsel 10rb NUMBER" get a helpful answer, not "tidak mengerti"', async () => {
    const budi = await buyer(world);
    const phone = await world.telegram.waitForBotMessage(budi, { after: budi.send('081234567890') });
    expect(phone.text).not.toContain('tidak mengerti');
    expect(phone.text).toContain('Telkomsel');
    expect(phone.text).toContain('KODE.081234567890');
    expect(phone.text).toContain('/harga telkomsel');

    const letters = await world.telegram.waitForBotMessage(budi, { after: budi.send('TSEL10.abcdefghij') });
    expect(letters.text).not.toContain('tidak mengerti');
    expect(letters.text).toContain('"abcdefghij" bukan nomor tujuan yang benar untuk TSEL10');
    expect(letters.text).toContain('TSEL10.081234567890');

    const search = await world.telegram.waitForBotMessage(budi, { after: budi.send('pulsa tsel 10rb 081234567890') });
    expect(search.text).not.toContain('tidak mengerti');
    expect(search.text).toContain('TSEL10.081234567890');
    expect(world.telegram.callsTo('sendMessage').some((call) => String(call.params.text).includes('Konfirmasi'))).toBe(false);

    const ann = await buyer(world, 'Ann', { languageCode: 'en' });
    const english = await world.telegram.waitForBotMessage(ann, { after: ann.send('TSEL10.abcdefghij') });
    expect(english.text).toContain('"abcdefghij" is not a valid target for TSEL10');
    const englishPhone = await world.telegram.waitForBotMessage(ann, { after: ann.send('0817 1234 5678') });
    expect(englishPhone.text).toContain('CODE.081712345678');
    expect(englishPhone.text).toContain('/prices xl');
  });

  it('commands are understood in any case: /SALDO, /Cek', async () => {
    const budi = await buyer(world);
    const balance = await world.telegram.waitForBotMessage(budi, { after: budi.send('/SALDO') });
    expect(balance.text).toContain('Rp 1.000.000');
    const status = await world.telegram.waitForBotMessage(budi, { after: budi.send('/Cek') });
    expect(status.text).not.toBe(world.telegram.botMessages(budi).find((m) => m.text?.includes('/bantuan'))?.text);
    expect(status.text).toMatch(/pending|tertunda|tidak ada/i);
  });

  it('/cek with a 4,090-character word answers "not found" with the word cut short', async () => {
    const budi = await buyer(world);
    const word = 'A'.repeat(4090);
    const answer = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${word}`) });
    expect(answer.text).toContain('AAAA');
    expect(answer.text).toContain('…');
    expect(answer.text?.length).toBeLessThan(400);
  });

  it('/harga with an overlong search word answers with the word cut short', async () => {
    const budi = await buyer(world);
    const answer = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/harga ${'z'.repeat(4000)}`) });
    expect(answer.text).toContain('zzzz');
    expect(answer.text?.length).toBeLessThan(600);
  });

  it('/alert 00 turns the alert off like /alert 0; /alert 50,5 is refused, not read as Rp 505', async () => {
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert 50000'), textIncludes: 'Rp 50.000' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert 00'), textIncludes: 'dimatikan' });
    const shown = await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert') });
    expect(shown.text).toContain('belum diatur');

    const fraction = await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert 50,5') });
    expect(fraction.text).not.toContain('Rp 505');
    expect(fraction.text).toContain('rupiah bulat');
    const after = await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert') });
    expect(after.text).toContain('belum diatur');

    // Indonesian thousands separators still read as whole rupiah.
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert Rp 50.000'), textIncludes: 'Rp 50.000' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert 1,000,000'), textIncludes: 'Rp 1.000.000' });
  });
});

describe('invisible characters in pasted keys and codes', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('a key pasted with a zero-width space connects, and /validasi reads a code with one as the code itself', async () => {
    world = await startWorld();
    const rizky = world.telegram.createUser({ firstName: 'Rizky', languageCode: 'id' });
    await world.telegram.waitForBotMessage(rizky, { after: rizky.send('/start') });
    const { apiId, apiKey } = resellerDemoAccounts.main;
    await world.app.services.credentials.verifyAndSave(rizky.id, 'reseller', { apiId: `\u200B${apiId}`, apiKey: `${apiKey}\uFEFF` });
    expect(await world.app.services.credentials.load(rizky.id, 'reseller')).toEqual({ apiId, apiKey });

    await world.app.services.credentials.verifyAndSave(rizky.id, 'marketplace', { apiKey: marketplaceDemoAccounts.main.apiKey });
    const code = marketplaceDemoPurchaseCodes.supported;
    const answer = await world.telegram.waitForBotMessage(rizky, {
      after: rizky.send(`/validasi ${code.slice(0, 8)}\u200B${code.slice(8)}`),
    });
    expect(answer.text).toContain('Kode pembelian valid');
  });
});
