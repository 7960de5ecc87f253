/**
 * The wallet ledger's contract (`LedgerStore`, and the holds and refunds written with their
 * transactions) on both engines: a key appends once, a wallet never goes below zero, a purchase's
 * hold is stored with the purchase or not at all, its refund with its final Gagal status, once.
 */
import { expect, it } from 'vitest';
import type { StoreEngine } from '../../src/store/contract.ts';
import { LedgerRefusedError, LedgerShortError, type LedgerEntry, type NewLedgerEntry } from '../../src/store/records/ledger.ts';
import { describeEngines } from './contract/harness.ts';
import { createClock, purchase } from './helpers.ts';

const start = '2026-03-01T08:00:00.000Z';
const upline = 42;
const downline = 7001;

const deposit = (key: string, amount: number, wallet = downline): NewLedgerEntry => ({ wallet, upline, kind: 'deposit', amount, key });
const hold = (refId: string, amount: number, wallet = downline): NewLedgerEntry => ({
  wallet,
  upline,
  kind: 'hold',
  amount: -amount,
  key: `hold:${refId}`,
  refId,
});
const refund = (refId: string, amount: number, key = `refund:${refId}`): NewLedgerEntry => ({
  wallet: downline,
  upline,
  kind: 'refund',
  amount,
  key,
  refId,
});
const final = (refId: string): NewLedgerEntry => ({ wallet: downline, upline, kind: 'final', amount: 0, key: `final:${refId}`, refId });
/** A downline's purchase (user `downline`), paid from their wallet. */
const bought = (refId: string) => purchase(refId, { userId: downline, chatId: downline, price: 10_250, sellPrice: 11_000 });

/** The wallet as a reader sees it: balance, and every entry oldest first as [kind, amount, balance after]. */
async function wallet(store: StoreEngine, id = downline) {
  const entries = (await store.ledger.statement(id, { limit: 1000 })).reverse();
  return { balance: await store.ledger.balance(id), entries: entries.map((entry) => [entry.kind, entry.amount, entry.balance]) };
}

const sum = (entries: readonly LedgerEntry[]) => entries.reduce((total, entry) => total + entry.amount, 0);

describeEngines('wallet ledger contract', (suite) => {
  it('a deposit key credits once: the same key again returns the stored entry, another amount under it is refused', async () => {
    const store = await suite.open(createClock(start).now);
    const [first] = await store.ledger.append([deposit('ticket:1', 100_127)]);
    expect(first).toMatchObject({ created: true, entry: { seq: 1, balance: 100_127, kind: 'deposit' } });
    const [again] = await store.ledger.append([deposit('ticket:1', 100_127)]);
    expect(again).toEqual({ created: false, entry: first!.entry });
    await expect(store.ledger.append([deposit('ticket:1', 200_000)])).rejects.toMatchObject({ code: 'refused', reason: 'key-reused' });
    expect(await wallet(store)).toEqual({ balance: 100_127, entries: [['deposit', 100_127, 100_127]] });
    // Another wallet has its own keys.
    await store.ledger.append([deposit('ticket:1', 5_000, 7002)]);
    expect(await store.ledger.balance(7002)).toBe(5_000);
    expect(await store.ledger.balance(9999)).toBe(0);
  });

  it('notify queues its messages in the commit of the entries created, and nothing when the key was there or the append is refused', async () => {
    const store = await suite.open(createClock(start).now);
    const told = (entries: readonly LedgerEntry[]) =>
      entries.map((entry) => ({
        chatId: entry.wallet,
        kind: 'wallet-credited',
        payload: { type: 'send' as const, text: `+${entry.amount} = ${entry.balance}` },
      }));
    await store.ledger.append([deposit('ticket:1', 100_127)], { notify: told });
    await store.ledger.append([deposit('ticket:1', 100_127)], { notify: told });
    await expect(store.ledger.append([hold('r1', 200_000)], { notify: told })).rejects.toBeInstanceOf(LedgerShortError);
    const texts = (await store.outbox.list()).map((item) => (item.payload as { text?: string }).text);
    expect(texts).toEqual(['+100127 = 100127']);
    // Durable with the entry: a reopened engine has both.
    const reopened = await suite.reopen(store, createClock(start).now);
    expect(await reopened.ledger.balance(downline)).toBe(100_127);
    expect(await reopened.outbox.size()).toBe(1);
  });

  it('an append that would take the balance below zero is refused with the shortfall, and nothing of its write is stored', async () => {
    const store = await suite.open(createClock(start).now);
    await store.ledger.append([deposit('d1', 10_000)]);
    const short = await store.ledger.append([hold('R1', 11_000)]).catch((error: unknown) => error);
    expect(short).toBeInstanceOf(LedgerShortError);
    expect(short).toMatchObject({ code: 'refused', reason: 'insufficient', balance: 10_000, shortBy: 1_000 });
    // All or none: the deposit that goes with a refused adjustment is not stored either.
    const adjust: NewLedgerEntry = {
      wallet: downline,
      upline,
      kind: 'adjust',
      amount: -20_000,
      key: 'a1',
      by: upline,
      reason: 'salah transfer',
    };
    await expect(store.ledger.append([deposit('d2', 5_000), adjust])).rejects.toMatchObject({ reason: 'insufficient', shortBy: 5_000 });
    await expect(store.ledger.append([{ ...adjust, reason: undefined, amount: -1 }])).rejects.toMatchObject({ code: 'invalid' });
    expect(await wallet(store)).toEqual({ balance: 10_000, entries: [['deposit', 10_000, 10_000]] });
    // Exactly the balance may go: to zero, not below.
    await store.ledger.append([{ ...adjust, amount: -10_000 }]);
    expect(await wallet(store)).toEqual({
      balance: 0,
      entries: [
        ['deposit', 10_000, 10_000],
        ['adjust', -10_000, 0],
      ],
    });
  });

  it('a purchase is held with its transaction in one write: a short wallet stores neither, a duplicate refId or used confirmation no hold', async () => {
    const store = await suite.open(createClock(start).now);
    await store.ledger.append([deposit('d1', 25_000)]);
    const [tx] = await store.transactions.createMany([bought('R1')], { confirmationId: 'c1', ledger: [hold('R1', 11_000)] });
    expect(tx).toMatchObject({ refId: 'R1', status: 'Created' });
    expect(await store.ledger.byRef(downline, 'R1')).toMatchObject([{ kind: 'hold', amount: -11_000, balance: 14_000, refId: 'R1' }]);

    // Too little left: no transaction, no hold.
    await expect(store.transactions.create(bought('R2'), { ledger: [hold('R2', 15_000)] })).rejects.toBeInstanceOf(LedgerShortError);
    expect(await store.transactions.find('R2')).toBeUndefined();
    // The same refId again (under another key): refused as a duplicate, and its hold with it.
    await expect(store.transactions.create(bought('R1'), { ledger: [{ ...hold('R1', 1_000), key: 'other' }] })).rejects.toMatchObject({
      code: 'duplicate',
    });
    // A used confirmation id: nothing held.
    await expect(
      store.transactions.createMany([bought('R3')], { confirmationId: 'c1', ledger: [hold('R3', 1_000)] }),
    ).rejects.toMatchObject({
      code: 'duplicate',
    });
    expect(await store.transactions.find('R3')).toBeUndefined();
    // A second hold of one purchase is refused by the ledger itself.
    await expect(store.ledger.append([{ ...hold('R1', 1_000), key: 'again' }])).rejects.toMatchObject({ reason: 'held-already' });
    expect(await wallet(store)).toEqual({
      balance: 14_000,
      entries: [
        ['deposit', 25_000, 25_000],
        ['hold', -11_000, 14_000],
      ],
    });
    // A create without a ledger option is what it always was.
    await store.transactions.create(purchase('R9'));
    expect(await store.transactions.find('R9')).toMatchObject({ status: 'Created' });
  });

  it('a final Gagal and its refund are one write, once: a second settlement refunds nothing, a Sukses final closes the hold', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    await store.ledger.append([deposit('d1', 30_000)]);
    await store.transactions.create(bought('R1'), { ledger: [hold('R1', 11_000)] });
    await store.transactions.create(bought('R2'), { ledger: [hold('R2', 11_000)] });
    clock.advance(60_000);
    const failed = await store.transactions.settle('R1', { status: 'Gagal' }, { ledger: [refund('R1', 11_000)] });
    expect(failed).toMatchObject({ status: 'Gagal' });
    expect(await store.transactions.settle('R1', { status: 'Gagal' }, { ledger: [refund('R1', 11_000)] })).toBeUndefined();
    // A refund under another key, or of another amount, is refused; so is a refund after a final.
    await expect(store.ledger.append([refund('R1', 11_000, 'late')])).rejects.toMatchObject({ reason: 'closed-already' });
    await expect(store.ledger.append([refund('R2', 5_000)])).rejects.toMatchObject({ code: 'invalid' });
    expect(await store.transactions.settle('R2', { status: 'Sukses', sn: 'SN1' }, { ledger: [final('R2')] })).toMatchObject({
      status: 'Sukses',
    });
    await expect(store.ledger.append([refund('R2', 11_000)])).rejects.toBeInstanceOf(LedgerRefusedError);
    await expect(store.ledger.append([refund('R404', 1_000)])).rejects.toMatchObject({ reason: 'not-held' });
    // A settlement whose entry the ledger refuses settles nothing.
    await store.transactions.create(bought('R3'), { ledger: [hold('R3', 1_000)] });
    await expect(store.transactions.settle('R3', { status: 'Gagal' }, { ledger: [refund('R3', 999)] })).rejects.toMatchObject({
      code: 'invalid',
    });
    expect(await store.transactions.get('R3')).toMatchObject({ status: 'Created' });

    const reopened = await suite.reopen(store, clock.now);
    expect(await reopened.ledger.byRef(downline, 'R1')).toMatchObject([
      { kind: 'hold', amount: -11_000 },
      { kind: 'refund', amount: 11_000 },
    ]);
    expect(await wallet(reopened)).toEqual({
      balance: 18_000,
      entries: [
        ['deposit', 30_000, 30_000],
        ['hold', -11_000, 19_000],
        ['hold', -11_000, 8_000],
        ['refund', 11_000, 19_000],
        ['final', 0, 19_000],
        ['hold', -1_000, 18_000],
      ],
    });
    expect(await reopened.transactions.find('R1')).toMatchObject({ status: 'Gagal' });
  });

  it('the statement pages newest first with the running balance, and the balance is the sum of the entries', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    for (let i = 1; i <= 5; i++) {
      clock.advance(1000);
      await store.ledger.append([deposit(`d${i}`, i * 1000)]);
    }
    const firstPage = await store.ledger.statement(downline, { limit: 2 });
    expect(firstPage.map((entry) => [entry.seq, entry.amount, entry.balance])).toEqual([
      [5, 5000, 15_000],
      [4, 4000, 10_000],
    ]);
    const lastPage = await store.ledger.statement(downline, { limit: 2, offset: 4 });
    expect(lastPage.map((entry) => [entry.seq, entry.balance])).toEqual([[1, 1000]]);
    expect(await store.ledger.statement(downline, { offset: 5 })).toEqual([]);
    const all = await store.ledger.statement(downline, { limit: 100 });
    expect(sum(all)).toBe(await store.ledger.balance(downline));
    expect(all.at(-1)).toMatchObject({ createdAt: '2026-03-01T08:00:01.000Z', upline, key: 'd1' });
  });

  it('a wallet is kept with one upline at a time: another is refused while it holds money or a purchase, and takes it once empty', async () => {
    const clock = createClock(start);
    let store = await suite.open(clock.now);
    const other = 43;
    const payOut = (key: string, amount: number, by = upline): NewLedgerEntry => ({
      wallet: downline,
      upline: by,
      kind: 'adjust',
      amount: -amount,
      key,
      by,
      reason: 'dibayar tunai',
    });
    expect(await store.ledger.summary(downline)).toBeUndefined();
    await store.ledger.append([deposit('d1', 5_000)]);
    await expect(store.ledger.append([{ ...deposit('b1', 1000), upline: other }])).rejects.toMatchObject({ reason: 'other-upline' });
    // Every rupiah held by a purchase still open: balance 0, but not empty.
    await store.transactions.create(bought('R1'), { ledger: [hold('R1', 5_000)] });
    expect(await store.ledger.summary(downline)).toEqual({ wallet: downline, upline, balance: 0, openHolds: 1 });
    await expect(store.ledger.append([{ ...deposit('b1', 1000), upline: other }])).rejects.toMatchObject({ reason: 'other-upline' });
    await store.transactions.settle('R1', { status: 'Gagal' }, { ledger: [refund('R1', 5_000)] });
    await expect(store.ledger.append([{ ...deposit('b1', 1000), upline: other }])).rejects.toMatchObject({ reason: 'other-upline' });
    // The former upline pays it out; then the wallet moves with the new upline's first entry.
    await store.ledger.append([payOut('out', 5_000)]);
    expect(await store.ledger.summary(downline)).toEqual({ wallet: downline, upline, balance: 0, openHolds: 0 });
    const [moved] = await store.ledger.append([{ ...deposit('b1', 1000), upline: other }]);
    expect(moved).toMatchObject({ created: true, entry: { seq: 5, upline: other, balance: 1000 } });
    expect(await store.ledger.summary(downline)).toEqual({ wallet: downline, upline: other, balance: 1000, openHolds: 0 });
    // Now the former upline is the other one, and it survives a restart.
    clock.advance(1000);
    store = await suite.reopen(store, clock.now);
    expect(await store.ledger.summary(downline)).toEqual({ wallet: downline, upline: other, balance: 1000, openHolds: 0 });
    await expect(store.ledger.append([payOut('late', 500)])).rejects.toMatchObject({ reason: 'other-upline' });
    await expect(store.ledger.append([deposit('d2', 1000)])).rejects.toMatchObject({ reason: 'other-upline' });
    // A replayed key of the former upline is still the stored entry, not a refusal.
    expect((await store.ledger.append([deposit('d1', 5_000)]))[0]).toMatchObject({ created: false, entry: { seq: 1, upline } });
    expect(await wallet(store)).toEqual({
      balance: 1000,
      entries: [
        ['deposit', 5_000, 5_000],
        ['hold', -5_000, 0],
        ['refund', 5_000, 5_000],
        ['adjust', -5_000, 0],
        ['deposit', 1000, 1000],
      ],
    });
  });

  it('six purchases at once from two instances on a wallet with room for two: two are held, four refused short, none below zero', async () => {
    const clock = createClock(start);
    const first = await suite.open(clock.now);
    const second = suite.kind === 'postgres' ? await suite.open(clock.now) : first;
    await first.ledger.append([deposit('d1', 12_000)]);
    const refIds = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'];
    const results = await Promise.allSettled(
      refIds.map((refId, i) => (i % 2 === 0 ? first : second).transactions.create(bought(refId), { ledger: [hold(refId, 5_000)] })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(LedgerShortError);
    const { balance, entries } = await wallet(second);
    expect(balance).toBe(2_000);
    expect(entries.map(([kind]) => kind)).toEqual(['deposit', 'hold', 'hold']);
    const stored = await Promise.all(refIds.map((refId) => first.transactions.find(refId)));
    expect(stored.filter((tx) => tx !== undefined)).toHaveLength(2);
  });

  it('two holds at once on a wallet with room for one: exactly one purchase is held and recorded, the balance never below zero', async () => {
    const clock = createClock(start);
    const first = await suite.open(clock.now);
    // Two instances on PostgreSQL; on lowdb one process owns the data, so both calls go to it.
    const second = suite.kind === 'postgres' ? await suite.open(clock.now) : first;
    await first.ledger.append([deposit('d1', 15_000)]);
    const results = await Promise.allSettled([
      first.transactions.create(bought('A'), { ledger: [hold('A', 11_000)] }),
      second.transactions.create(bought('B'), { ledger: [hold('B', 11_000)] }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((result) => result.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(LedgerShortError);
    const held = [await first.transactions.find('A'), await first.transactions.find('B')].filter((tx) => tx !== undefined);
    expect(held).toHaveLength(1);
    expect(await wallet(first)).toEqual({
      balance: 4_000,
      entries: [
        ['deposit', 15_000, 15_000],
        ['hold', -11_000, 4_000],
      ],
    });
    expect((await first.ledger.byRef(downline, held[0]!.refId)).map((entry) => entry.kind)).toEqual(['hold']);
    if (suite.kind === 'postgres') {
      const [row] = await suite.sql<{ balance: string; sum: string; entries: number; count: string }>(
        `SELECT w.balance, w.entries, (SELECT sum(amount) FROM ledger_entries e WHERE e.wallet = w.wallet) AS sum,
                (SELECT count(*) FROM ledger_entries e WHERE e.wallet = w.wallet) AS count
         FROM ledger_wallets w WHERE wallet = $1`,
        [downline],
      );
      expect(row).toEqual({ balance: '4000', sum: '4000', entries: 2, count: '2' });
    }
  });
});
