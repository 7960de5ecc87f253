/**
 * The wallet ledger under random sequences (a seeded generator: a failure names its seed and
 * replays exactly): deposits (some replayed), purchases held with their transaction (Sukses,
 * Gagal, Pending then either), replayed creates and settlements, adjustments, and restarts of
 * the store between any two steps. After every step each wallet's balance is the sum of its
 * entries and what a model says, never below zero; every purchase is held once (or, refused, not
 * at all) and closed at most once, refunded only if it failed; every deposit key credited once.
 * An entry naming the other upline moves the wallet when it is empty (balance 0, no open hold)
 * and is refused otherwise: every entry names the upline that kept the wallet when it was made.
 * On lowdb also with ledger.json failing at random, as after a crash between the hot file's write
 * and the copy: the entries then come from the hot file, and the next open copies them once.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreEngine } from '../../src/store/contract.ts';
import { writeFileAtomic, type AtomicWriter } from '../../src/store/durable-file.ts';
import { ledgerFileName } from '../../src/store/ledger.ts';
import { createLowdbEngine } from '../../src/store/lowdb-engine.ts';
import { LedgerShortError, type LedgerEntry, type NewLedgerEntry } from '../../src/store/records/ledger.ts';
import { openStore } from '../../src/store/store.ts';
import { describeEngines } from './contract/harness.ts';
import { createClock, createTempDirs, purchase, testVault } from './helpers.ts';

const upline = 42;
const otherUpline = 43;
const wallets = [7001, 7002] as const;
const steps = 70;

/** mulberry32: small, fast, and the same sequence for a seed on every machine. */
function random(seed: number): { next(): number; int(below: number): number; pick<T>(items: readonly T[]): T } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (below) => Math.floor(next() * below), pick: (items) => items[Math.floor(next() * items.length)]! };
}

type Outcome = 'held' | 'Sukses' | 'Gagal';

/** What the store should hold, kept by the test alongside it. */
interface Model {
  balance: Map<number, number>;
  /** Purchases by refId: their wallet, price and what became of them (refused ones are not here). */
  purchases: Map<string, { wallet: number; price: number; outcome: Outcome; upline: number }>;
  refused: Set<string>;
  deposits: Map<string, { wallet: number; amount: number; upline: number }>;
  /** Who keeps each wallet now (the upline of its latest entry). */
  uplines: Map<number, number>;
  /** Entries of the other upline that moved a wallet, and those refused as the wallet was not empty. */
  moves: number;
  refusedMoves: number;
}

const keeperOf = (model: Model, wallet: number) => model.uplines.get(wallet) ?? upline;
const openHoldsOf = (model: Model, wallet: number) =>
  [...model.purchases.values()].filter((p) => p.wallet === wallet && p.outcome === 'held').length;

interface Run {
  store: StoreEngine;
  restart(): Promise<void>;
}

const depositOf = (key: string, wallet: number, amount: number, by = upline): NewLedgerEntry => ({
  wallet,
  upline: by,
  kind: 'deposit',
  amount,
  key,
});

/** One random step on `run`, the model following what it must do. */
async function step(run: Run, model: Model, rng: ReturnType<typeof random>, index: number): Promise<void> {
  const wallet = rng.pick(wallets);
  const balance = model.balance.get(wallet) ?? 0;
  const keeper = keeperOf(model, wallet);
  const open = [...model.purchases].filter(([, p]) => p.outcome === 'held');
  const roll = rng.next();
  if (roll < 0.2) {
    // A deposit ticket, or a replay of one accepted before (double tap, second admin, restart).
    const replay = model.deposits.size > 0 && rng.next() < 0.4;
    const key = replay ? rng.pick([...model.deposits.keys()]) : `ticket:${index}`;
    const known = model.deposits.get(key);
    const target = known?.wallet ?? wallet;
    const amount = known?.amount ?? 1000 * (5 + rng.int(40));
    const by = known?.upline ?? keeper;
    const [result] = await run.store.ledger.append([depositOf(key, target, amount, by)]);
    expect(result?.created).toBe(!known);
    if (!known) {
      model.deposits.set(key, { wallet: target, amount, upline: by });
      model.balance.set(target, (model.balance.get(target) ?? 0) + amount);
    }
  } else if (roll < 0.55) {
    const refId = `R${index}`;
    const price = 1000 * (3 + rng.int(20));
    const tx = purchase(refId, { userId: wallet, chatId: wallet, price: price - 500, sellPrice: price });
    const hold: NewLedgerEntry = { wallet, upline: keeper, kind: 'hold', amount: -price, key: `hold:${refId}`, refId };
    const created = await run.store.transactions.create(tx, { ledger: [hold] }).catch((error: unknown) => error);
    if (price > balance) {
      expect(created).toBeInstanceOf(LedgerShortError);
      expect(created).toMatchObject({ shortBy: price - balance });
      model.refused.add(refId);
      return;
    }
    expect(created).toMatchObject({ refId });
    model.balance.set(wallet, balance - price);
    model.purchases.set(refId, { wallet, price, outcome: 'held', upline: keeper });
    // Sukses or Gagal at once, or Pending (settled by a later step).
    const settleNow = rng.next();
    if (settleNow < 0.3) await settle(run, model, refId, 'Sukses');
    else if (settleNow < 0.6) await settle(run, model, refId, 'Gagal');
    else await run.store.transactions.update(refId, { status: 'Pending', trxId: `T${index}` });
  } else if (roll < 0.75 && open.length > 0) {
    const [refId] = rng.pick(open);
    await settle(run, model, refId, rng.next() < 0.5 ? 'Sukses' : 'Gagal');
  } else if (roll < 0.85 && model.purchases.size > 0) {
    // A replay: the confirmation's create again, or a settlement again (a re-delivered callback).
    const [refId, p] = rng.pick([...model.purchases]);
    const hold: NewLedgerEntry = { wallet: p.wallet, upline: p.upline, kind: 'hold', amount: -p.price, key: `hold:${refId}`, refId };
    await expect(run.store.transactions.create(purchase(refId, { userId: p.wallet }), { ledger: [hold] })).rejects.toMatchObject({
      code: 'duplicate',
    });
    if (p.outcome !== 'held') {
      const refund: NewLedgerEntry = { wallet: p.wallet, upline: p.upline, kind: 'refund', amount: p.price, key: `refund:${refId}`, refId };
      expect(await run.store.transactions.settle(refId, { status: 'Gagal' }, { ledger: [refund] })).toBeUndefined();
    }
  } else if (roll < 0.93) {
    // The keeper's adjustment, either way (one that would go below zero is refused); or the
    // downline leaves: the keeper pays the balance out and the other upline credits the wallet,
    // which moves it only if that left it empty (no purchase still held).
    const leaving = rng.next() < 0.4;
    let before = balance;
    if (leaving && balance > 0) {
      const payOut: NewLedgerEntry = {
        wallet,
        upline: keeper,
        kind: 'adjust',
        amount: -balance,
        key: `payout:${index}`,
        by: keeper,
        reason: 'keluar',
      };
      await run.store.ledger.append([payOut]);
      model.balance.set(wallet, (before = 0));
    }
    const by = leaving ? (keeper === upline ? otherUpline : upline) : keeper;
    const amount = leaving ? 500 * (1 + rng.int(30)) : (rng.next() < 0.5 ? -1 : 1) * 500 * (1 + rng.int(30));
    const adjust: NewLedgerEntry = { wallet, upline: by, kind: 'adjust', amount, key: `adjust:${index}`, by, reason: 'koreksi' };
    const result = await run.store.ledger.append([adjust]).catch((error: unknown) => error);
    if (by !== keeper && openHoldsOf(model, wallet) > 0) {
      expect(result).toMatchObject({ reason: 'other-upline' });
      model.refusedMoves += 1;
    } else if (before + amount < 0) expect(result).toMatchObject({ reason: 'insufficient', shortBy: -(before + amount) });
    else {
      expect(result).toMatchObject([{ created: true, entry: { upline: by } }]);
      model.balance.set(wallet, before + amount);
      if (by !== keeper) model.moves += 1;
      model.uplines.set(wallet, by);
    }
  } else {
    await run.restart();
  }
}

/** Settles `refId` with its final (Sukses) or refund (Gagal) in the same write. */
async function settle(run: Run, model: Model, refId: string, status: 'Sukses' | 'Gagal'): Promise<void> {
  const p = model.purchases.get(refId)!;
  const entry: NewLedgerEntry =
    status === 'Sukses'
      ? { wallet: p.wallet, upline: p.upline, kind: 'final', amount: 0, key: `final:${refId}`, refId }
      : { wallet: p.wallet, upline: p.upline, kind: 'refund', amount: p.price, key: `refund:${refId}`, refId };
  expect(await run.store.transactions.settle(refId, { status }, { ledger: [entry] })).toMatchObject({ status });
  p.outcome = status;
  if (status === 'Gagal') model.balance.set(p.wallet, (model.balance.get(p.wallet) ?? 0) + p.price);
}

/** Every invariant, read back from the store. */
async function check(store: StoreEngine, model: Model): Promise<void> {
  const byWallet = new Map<number, LedgerEntry[]>();
  for (const wallet of wallets) {
    const entries = (await store.ledger.statement(wallet, { limit: 10_000 })).reverse();
    byWallet.set(wallet, entries);
    let running = 0;
    entries.forEach((entry, i) => {
      running += entry.amount;
      expect(entry).toMatchObject({ seq: i + 1, balance: running, wallet });
      expect(entry.balance).toBeGreaterThanOrEqual(0);
    });
    expect(await store.ledger.balance(wallet)).toBe(running);
    expect(running).toBe(model.balance.get(wallet) ?? 0);
    const summary = await store.ledger.summary(wallet);
    if (entries.length === 0) expect(summary).toBeUndefined();
    else expect(summary).toEqual({ wallet, upline: keeperOf(model, wallet), balance: running, openHolds: openHoldsOf(model, wallet) });
  }
  const all = [...byWallet.values()].flat();
  for (const [key, deposit] of model.deposits) {
    expect(all.filter((entry) => entry.key === key).map((entry) => [entry.wallet, entry.amount])).toEqual([
      [deposit.wallet, deposit.amount],
    ]);
  }
  for (const [refId, p] of model.purchases) {
    const kinds = (await store.ledger.byRef(p.wallet, refId)).map((entry) => entry.kind);
    expect(kinds).toEqual(p.outcome === 'held' ? ['hold'] : p.outcome === 'Sukses' ? ['hold', 'final'] : ['hold', 'refund']);
    expect((await store.transactions.find(refId))?.status).toBe(p.outcome === 'held' ? 'Pending' : p.outcome);
  }
  for (const refId of model.refused) {
    expect(all.filter((entry) => entry.refId === refId)).toEqual([]);
    expect(await store.transactions.find(refId)).toBeUndefined();
  }
}

async function runSeed(seed: number, first: StoreEngine, reopen: (store: StoreEngine) => Promise<StoreEngine>): Promise<Model> {
  const rng = random(seed);
  const model: Model = {
    balance: new Map(),
    purchases: new Map(),
    refused: new Set(),
    deposits: new Map(),
    uplines: new Map(),
    moves: 0,
    refusedMoves: 0,
  };
  const run: Run = {
    store: first,
    async restart() {
      run.store = await reopen(run.store);
    },
  };
  for (let index = 0; index < steps; index++) {
    await step(run, model, rng, index);
    await check(run.store, model);
  }
  // A last restart: everything above is on disk (or committed).
  run.store = await reopen(run.store);
  await check(run.store, model);
  // The model moved money, or the run proved little.
  expect(model.purchases.size + model.refused.size).toBeGreaterThan(5);
  // A downline left their upline at least once (moved, or refused while a purchase was held).
  expect(model.moves + model.refusedMoves).toBeGreaterThan(0);
  return model;
}

const seeds = [1, 7, 2026];

describeEngines('wallet ledger under random sequences with restarts', (suite) => {
  for (const seed of seeds) {
    it(`seed ${seed}`, async () => {
      const clock = createClock('2026-03-01T08:00:00.000Z');
      await runSeed(seed, await suite.open(clock.now), (store) => {
        clock.advance(1000);
        return suite.reopen(store, clock.now);
      });
    }, 60_000);
  }
});

describe('wallet ledger under random sequences (lowdb, ledger.json failing at random)', () => {
  const dirs = createTempDirs();
  const opened = new Set<StoreEngine>();
  afterEach(async () => {
    await Promise.all([...opened].map((engine) => engine.close().catch(() => undefined)));
    opened.clear();
    dirs.cleanup();
  });

  for (const seed of seeds) {
    it(`seed ${seed}`, async () => {
      const clock = createClock('2026-03-01T08:00:00.000Z');
      const dataDir = dirs.make();
      const failures = random(seed ^ 0x5eed);
      // About a third of ledger.json's writes fail, as if the process died before the copy.
      const writeFile: AtomicWriter = (file, content, options) =>
        path.basename(file) === ledgerFileName && failures.next() < 0.35
          ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }))
          : writeFileAtomic(file, content, options);
      const open = async () => {
        const engine = createLowdbEngine(await openStore({ dataDir, vault: testVault(), now: clock.now, writeFile }), clock.now);
        opened.add(engine);
        return engine;
      };
      await runSeed(seed, await open(), async (store) => {
        opened.delete(store);
        // A failed last copy fails the close; the entries wait in the hot file for the next open.
        await store.close().catch(() => undefined);
        clock.advance(1000);
        return open();
      });
    }, 60_000);
  }
});
