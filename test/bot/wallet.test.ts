import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld, type TestWorldOptions } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

const payInfo = 'BCA 1234567890 a.n. Budi Santoso';

/** The unique amount of a deposit ticket (`Rp 100.127` → 100127). */
function totalIn(message: EmulatedMessage): number {
  const match = /Transfer tepat (Rp [\d.]+)/.exec(message.text ?? '');
  if (!match?.[1]) throw new Error(`no unique amount in ${message.text}`);
  return Number(match[1].replace(/\D/g, ''));
}

describe('downline wallets: deposits, adjustments, /saldo and /mutasi (DOWNLINES=true)', () => {
  let world: TestWorld;
  let clock = Date.now();
  afterEach(async () => {
    await world.stop();
  });

  /** Budi (a connected reseller) with downline mode open and auto-approve on; Sari joined as his downline. */
  const withDownline = async (app: TestWorldOptions['app'] = {}): Promise<{ budi: EmulatedUser; sari: EmulatedUser }> => {
    clock = Date.now();
    world = await startWorld({
      jobs: true,
      env: { DOWNLINES: 'true' },
      app: { now: () => new Date(clock), outboxLimits: { perChatMs: 20 }, ...app },
    });
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Level' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline auto nyala'), textIncludes: 'nyala' });
    const made = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline undang'), textIncludes: 'Link undangan baru' });
    const payload = /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec(made.text ?? '')?.[1] ?? '';
    const sari = world.telegram.createUser({ firstName: 'Sari', username: 'sari', languageCode: 'id' });
    await world.telegram.waitForBotMessage(sari, { after: sari.send(`/start ${payload}`), textIncludes: 'Anda sekarang downline' });
    return { budi, sari };
  };

  /** Sari asks for `command`'s deposit; resolves her ticket and the request Budi got. */
  const ask = async (budi: EmulatedUser, sari: EmulatedUser, command: string) => {
    const seen = world.telegram.botMessages(budi).length;
    const ticket = await world.telegram.waitForBotMessage(sari, { after: sari.send(command), textIncludes: 'Tiket deposit' });
    const request = await world.telegram.waitForBotMessage(budi, {
      where: (m) => world.telegram.botMessages(budi).indexOf(m) >= seen && (m.text ?? '').includes('Tiket deposit dari Sari'),
    });
    return { ticket, request };
  };

  const toldSari = (sari: EmulatedUser, text: string) => world.telegram.botMessages(sari).filter((m) => (m.text ?? '').includes(text));

  it('a deposit gets a unique amount and the payment instructions; the same amount twice gets two codes; none without instructions', async () => {
    const { budi, sari } = await withDownline();
    const early = await world.telegram.waitForBotMessage(sari, { after: sari.send('/deposit 100000') });
    expect(early.text).toContain('Budi belum mengatur cara bayar deposit');

    const saved = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/carabayar ${payInfo}`), textIncludes: 'disimpan' });
    expect(saved.text).toContain(payInfo);

    const first = await ask(budi, sari, '/deposit 100000');
    const second = await ask(budi, sari, '/deposit 100.000');
    const a = totalIn(first.ticket);
    const b = totalIn(second.ticket);
    for (const total of [a, b]) {
      expect(total).toBeGreaterThan(100_000);
      expect(total).toBeLessThan(101_000);
    }
    expect(a).not.toBe(b);
    expect(first.ticket.text).toContain(payInfo);
    expect(first.ticket.text).toContain(`(Rp 100.000 + kode unik ${a - 100_000})`);
    expect(first.ticket.text).toMatch(/sebelum \d+ \w+ \d{4} \d{2}\.\d{2} WIB/);
    expect(first.ticket.buttons).toEqual([['📋 Salin nominal']]);
    expect(first.request.buttons).toEqual([['✅ Terima', '❌ Tolak']]);
    expect(first.request.text).toContain(`Sari (@sari) (ID ${sari.id})`);

    // By buttons: /deposit alone offers common amounts.
    const choose = await world.telegram.waitForBotMessage(sari, { after: sari.send('/deposit'), textIncludes: 'Pilih nominal' });
    expect(choose.buttons.flat()).toContain('Rp 50.000');
    sari.tap(choose, 'Rp 50.000');
    const byButton = await world.telegram.waitForBotMessage(sari, { after: choose, textIncludes: 'Tiket deposit' });
    expect(totalIn(byButton)).toBeGreaterThan(50_000);
    // A fourth open ticket is refused; nothing moved yet.
    const fourth = await world.telegram.waitForBotMessage(sari, { after: sari.send('/deposit 20000') });
    expect(fourth.text).toContain('masih punya 3 tiket deposit');
    expect(await world.app.db.ledger.balance(sari.id)).toBe(0);
  });

  it('tickets asked at once get different codes (PostgreSQL: under the upline row lock), and the fourth is refused', async () => {
    // Every request tries the codes in the same order: each must skip the ones taken.
    const { budi, sari } = await withDownline({ depositCodes: () => Array.from({ length: 999 }, (_, i) => i + 1) });
    await world.telegram.waitForBotMessage(budi, { after: budi.send(`/carabayar ${payInfo}`), textIncludes: 'disimpan' });
    const wallets = world.app.services.wallets;
    const answers = await Promise.all([1, 2, 3, 4].map(() => wallets.requestDeposit(sari.id, 100_000)));
    const codes = answers.flatMap((a) => (a.kind === 'requested' ? [a.request.code] : []));
    expect([...codes].sort()).toEqual([1, 2, 3]);
    expect(answers.filter((a) => a.kind === 'too-many')).toHaveLength(1);
    expect((await world.app.db.users.get(budi.id))?.depositDesk?.requests.map((r) => r.code).sort()).toEqual([...codes].sort());
  });

  it('accepting credits once under a double tap and a replayed update; the downline is told once; reject and expiry credit nothing', async () => {
    const { budi, sari } = await withDownline();
    await world.telegram.waitForBotMessage(budi, { after: budi.send(`/carabayar ${payInfo}`), textIncludes: 'disimpan' });
    const { ticket, request } = await ask(budi, sari, '/deposit 100000');
    const total = totalIn(ticket);

    const tap = budi.tap(request, '✅ Terima');
    const again = budi.tap(request, '✅ Terima');
    const answers = [await world.telegram.waitForCallbackAnswer(tap), await world.telegram.waitForCallbackAnswer(again)].map((a) => a.text);
    expect(answers.sort()).toEqual(['Tiket ini sudah diterima (saldo ditambahkan sekali saja).', '✅ Diterima: saldo downline bertambah.']);
    // The same tap delivered again, as after a crash, and with the same update id.
    const answered = world.telegram.callsTo('answerCallbackQuery').length;
    world.telegram.pushUpdate({ callback_query: { ...tap, id: `${tap.id}-again` } });
    world.telegram.redeliver(world.telegram.updates.at(-1)!);
    await world.telegram.waitFor(() => world.telegram.callsTo('answerCallbackQuery').length >= answered + 1);
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Deposit' + ' Rp' });
    await world.idle();

    expect(await world.app.db.ledger.balance(sari.id)).toBe(total);
    expect(await world.app.db.ledger.statement(sari.id)).toMatchObject([{ kind: 'deposit', amount: total, balance: total }]);
    const credited = toldSari(sari, 'diterima oleh Budi');
    expect(credited).toHaveLength(1);
    expect(credited[0]?.text).toContain(`Saldo Anda sekarang Rp ${total.toLocaleString('id-ID')}`);
    const decided = world.telegram.message(budi, request.messageId);
    expect(decided?.text).toContain('✅ diterima');
    expect(decided?.buttons).toEqual([]);

    const rejectedAsk = await ask(budi, sari, '/deposit 50000');
    // ❌ then ✅ before the first answer: rejected, and the late ✅ is told so.
    const reject = budi.tap(rejectedAsk.request, '❌ Tolak');
    const late = budi.tap(rejectedAsk.request, '✅ Terima');
    expect((await world.telegram.waitForCallbackAnswer(reject)).text).toBe('❌ Ditolak.');
    expect((await world.telegram.waitForCallbackAnswer(late)).text).toBe('Tiket ini sudah ditolak.');
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Budi menolak tiket deposit' });

    const expiring = await ask(budi, sari, '/deposit 70000');
    clock += 6 * 3600_000 + 1;
    const expired = budi.tap(expiring.request, '✅ Terima');
    expect((await world.telegram.waitForCallbackAnswer(expired)).text).toBe('Tiket ini sudah kedaluwarsa.');
    await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === expiring.request.messageId && (m.text ?? '').includes('kedaluwarsa'),
    });
    await world.idle();
    expect(await world.app.db.ledger.balance(sari.id)).toBe(total);
    expect(toldSari(sari, 'diterima oleh Budi')).toHaveLength(1);
  });

  it('a restart after the decision and before the credit: the next tap on the request credits it, once', async () => {
    const { budi, sari } = await withDownline();
    await world.telegram.waitForBotMessage(budi, { after: budi.send(`/carabayar ${payInfo}`), textIncludes: 'disimpan' });
    const { ticket, request } = await ask(budi, sari, '/deposit 100000');
    // What the first commit of an accept leaves when the process dies right after it: decided, not credited.
    await world.app.db.users.transact([budi.id], (users) => {
      const desk = users.get(budi.id)!.depositDesk!;
      const requests = desk.requests.map((r) => ({ ...r, status: 'accepted' as const, decidedAt: new Date(clock).toISOString() }));
      return { patches: [{ id: budi.id, patch: { depositDesk: { ...desk, requests } } }], result: undefined };
    });
    await world.restart();
    expect(await world.app.db.ledger.balance(sari.id)).toBe(0);
    const tap = budi.tap(request, '✅ Terima');
    expect((await world.telegram.waitForCallbackAnswer(tap)).text).toContain('sudah diterima');
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'diterima oleh Budi' });
    // The same tap once more, as a client that still shows the button sends it.
    world.telegram.pushUpdate({ callback_query: { ...tap, id: `${tap.id}-again` } });
    await world.idle();
    expect(await world.app.db.ledger.balance(sari.id)).toBe(totalIn(ticket));
    expect(toldSari(sari, 'diterima oleh Budi')).toHaveLength(1);
  });

  it('the upline adds and deducts with a reason, never below zero; the downline is told each movement; /saldo and /mutasi show the wallet', async () => {
    const { budi, sari } = await withDownline();
    const added = await world.telegram.waitForBotMessage(budi, {
      after: budi.send(`/saldodl ${sari.id} +50000 bonus akhir bulan`),
      textIncludes: 'ditambah',
    });
    expect(added.text).toBe(
      '✅ Saldo Sari (@sari) ditambah Rp 50.000 (bonus akhir bulan). Saldo sekarang Rp 50.000. Downline diberi tahu.',
    );
    const addUpdate = world.telegram.updates.at(-1)!;
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Budi menambah saldo Anda Rp 50.000 (bonus akhir bulan)' });

    const short = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('/saldodl @Sari -60000 koreksi'),
      textIncludes: 'Tidak dikurangi',
    });
    expect(short.text).toContain('saldo Sari (@sari) hanya Rp 50.000');
    // The id as the /downline card shows it (grouped) reads too.
    const grouped = sari.id.toLocaleString('id-ID');
    const deducted = await world.telegram.waitForBotMessage(budi, {
      after: budi.send(`/dlbalance ${grouped} -20000 koreksi transfer`),
      textIncludes: 'dikurangi',
    });
    expect(deducted.text).toContain('Saldo sekarang Rp 30.000');
    await world.telegram.waitForBotMessage(sari, {
      textIncludes: 'Budi mengurangi saldo Anda Rp 20.000 (koreksi transfer). Saldo Anda sekarang Rp 30.000',
    });

    // The add replayed (same update) and asked again under its key: nothing moves, nobody is told twice.
    world.telegram.redeliver(addUpdate);
    const repeated = await world.app.services.wallets.adjust(budi.id, sari.id, 50_000, 'bonus akhir bulan', String(addUpdate.update_id));
    expect(repeated).toMatchObject({ kind: 'done', repeated: true });
    const stranger = world.telegram.createUser({ firstName: 'Tono', languageCode: 'id' });
    await world.telegram.waitForBotMessage(stranger, { after: stranger.send('/start') });
    expect((await world.telegram.waitForBotMessage(budi, { after: budi.send(`/saldodl ${stranger.id} +1000 x`) })).text).toContain(
      'bukan downline Anda',
    );
    await world.idle();
    expect(await world.app.db.ledger.balance(sari.id)).toBe(30_000);
    expect(toldSari(sari, 'menambah saldo')).toHaveLength(1);

    const saldo = await world.telegram.waitForBotMessage(sari, { after: sari.send('/saldo'), textIncludes: 'Saldo deposit Anda' });
    expect(saldo.text).toContain('Saldo deposit Anda: Rp 30.000');
    expect(saldo.text).toContain('Disimpan di upline Anda, Budi');
    expect(saldo.buttons).toEqual([['➕ Deposit', '📜 Mutasi']]);

    for (let i = 1; i <= 10; i++) await world.app.services.wallets.adjust(budi.id, sari.id, 1000, `bonus ${i}`, `test-${i}`);
    sari.tap(saldo, '📜 Mutasi');
    const statement = await world.telegram.waitForBotMessage(sari, { after: saldo, textIncludes: 'Mutasi saldo' });
    const lines = (statement.text ?? '').split('\n').slice(1);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/ · Koreksi upline \+Rp 1\.000 · saldo Rp 40\.000 · bonus 10$/);
    expect(statement.buttons).toEqual([['Berikutnya ›']]);
    sari.tap(statement, 'Berikutnya ›');
    const older = await world.telegram.waitForBotMessage(sari, {
      where: (m) => m.messageId === statement.messageId && (m.text ?? '').includes('halaman 2'),
    });
    expect(older.text?.split('\n').slice(1)).toEqual([
      expect.stringMatching(/Koreksi upline −Rp 20\.000 · saldo Rp 30\.000 · koreksi transfer$/),
      expect.stringMatching(/Koreksi upline \+Rp 50\.000 · saldo Rp 50\.000 · bonus akhir bulan$/),
    ]);
    expect(older.buttons).toEqual([['‹ Sebelumnya']]);
    const typed = await world.telegram.waitForBotMessage(sari, { after: sari.send('/mutasi'), textIncludes: 'Mutasi saldo' });
    expect(typed.text).toContain('halaman 1');

    // Nothing Sari was sent shows Budi's provider balance or account.
    for (const message of world.telegram.botMessages(sari)) {
      expect(message.text ?? '').not.toMatch(/Saldo Top-up|Akun:|API/i);
    }
  });

  it('a non-downline gets the provider balance from /saldo, and the wallet commands say they are for downlines', async () => {
    const { budi } = await withDownline();
    const saldo = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Saldo' });
    expect(saldo.text).toContain('Akun:');
    expect(saldo.text).not.toContain('Saldo deposit Anda');
    const deposit = await world.telegram.waitForBotMessage(budi, { after: budi.send('/deposit 100000'), textIncludes: 'Perintah' });
    expect(deposit.text).toContain('Perintah ini untuk downline');
    const mutasi = await world.telegram.waitForBotMessage(budi, { after: budi.send('/mutasi'), textIncludes: 'Perintah' });
    expect(mutasi.text).toContain('Perintah ini untuk downline');
  });

  it('with DOWNLINES off, the wallet commands are unknown commands', async () => {
    world = await startWorld({ env: { DOWNLINES: 'false' } });
    const budi = await buyer(world);
    const unknown = await world.telegram.waitForBotMessage(budi, { after: budi.send('/nosuchcommand') });
    for (const command of ['/deposit 100000', '/mutasi', '/carabayar BCA 123', '/saldodl 1 +1000 x']) {
      const answer = await world.telegram.waitForBotMessage(budi, { after: budi.send(command) });
      expect(answer.text).toBe(unknown.text);
    }
    expect((await world.app.db.users.get(budi.id))?.depositDesk).toBeUndefined();
  });
});
