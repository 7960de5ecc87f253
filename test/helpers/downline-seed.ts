/**
 * Downline fixtures for the process and fleet tests (issue 31): an upline with the demo reseller
 * account, downline mode open and one level (Bronze = cost + `markup`), and downlines of theirs,
 * each with a wallet credited by an upline's adjustment — as `/downline`, an invite link and
 * `/saldodl` would have left them — written straight into a store before the bot starts.
 * Also the wallet check every such test ends with.
 */
import { expect } from 'vitest';
import type { Db } from '../../src/store/db.ts';
import { createDb } from '../../src/store/db.ts';
import { createLowdbEngine } from '../../src/store/lowdb-engine.ts';
import { openPgEngine } from '../../src/store/pg/engine.ts';
import type { LedgerEntry } from '../../src/store/records/ledger.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import { openStore } from '../../src/store/store.ts';
import { createVault } from '../../src/store/vault.ts';
import { newDownlineMode } from '../../src/services/downline-rules.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';
import { testEncryptionKey } from './app.ts';

/** What the sandbox charges the demo account for TSEL10 (the upline's cost). */
export const tsel10Cost = 10_450;

/** The test vault (the key every test world and process is given). */
export const testVault = () => createVault({ key: Buffer.from(testEncryptionKey, 'base64') });

/** Opens the lowdb store in `dataDir` (no bot running there) as the app sees it; close it after. */
export async function openDataDirDb(dataDir: string): Promise<{ db: Db; close(): Promise<void> }> {
  const store = await openStore({ dataDir, vault: testVault() });
  return { db: createDb(createLowdbEngine(store), testVault()), close: () => store.close() };
}

/** Opens the PostgreSQL database at `url` (migrated) as the app sees it; close it after. */
export async function openPgDb(url: string): Promise<{ db: Db; close(): Promise<void> }> {
  const db = createDb(await openPgEngine({ connectionString: url, max: 4 }), testVault());
  return { db, close: () => db.close() };
}

/**
 * Stores `upline` connected to the demo reseller account with downline mode open (Bronze, price
 * = cost + `markup`), and each of `downlines` as their active Bronze downline with `wallet`
 * rupiah credited (an adjustment "modal awal", key `adjust:seed-<id>`).
 */
export async function seedDownlines(
  db: Db,
  upline: EmulatedUser,
  downlines: readonly EmulatedUser[],
  options: { markup: number; wallet: number | ((index: number) => number) },
): Promise<void> {
  const at = new Date();
  const { apiId, apiKey } = resellerDemoAccounts.main;
  await db.users.upsert({ id: upline.id, firstName: upline.user.first_name });
  await db.credentials.save(upline.id, 'reseller', { apiId, apiKey }, 'DEMO');
  const mode = newDownlineMode(at);
  const bronze = { ...mode.levels[0]!, rules: { ...mode.levels[0]!.rules, default: { kind: 'fixed' as const, amount: options.markup } } };
  await db.users.update(upline.id, { downlineMode: { ...mode, levels: [bronze] } });
  for (const [index, downline] of downlines.entries()) {
    await db.users.upsert({ id: downline.id, firstName: downline.user.first_name, username: downline.user.username });
    await db.users.update(downline.id, {
      membership: {
        uplineId: upline.id,
        levelId: bronze.id,
        status: 'active',
        joinedAt: at.toISOString(),
        requestId: `seed${downline.id}`,
      },
    });
    const amount = typeof options.wallet === 'number' ? options.wallet : options.wallet(index);
    if (amount > 0) {
      await db.ledger.append([
        {
          wallet: downline.id,
          upline: upline.id,
          kind: 'adjust',
          amount,
          key: `adjust:seed-${downline.id}`,
          by: upline.id,
          reason: 'modal awal',
        },
      ]);
    }
  }
}

/** A wallet's whole statement, oldest first. */
export async function wholeStatement(db: Db, wallet: number): Promise<LedgerEntry[]> {
  return (await db.ledger.statement(wallet, { limit: 10_000 })).reverse();
}

/**
 * The wallet of `wallet` reconciles with its purchases `txs` (every transaction of the downline):
 * each purchase held once at its price and no hold without a purchase; a Sukses closed by one
 * final, a Gagal or Rejected by one refund of the hold, an open or Unresolved one still held; the
 * running balance never negative and each entry's balance the sum so far; and the balance —
 * the ledger's own and the sum of the entries — is credits − Σ price of Sukses − Σ price of
 * the still-open holds. Returns the balance.
 */
export async function expectWalletReconciles(db: Db, wallet: number, txs: readonly TransactionRecord[], label: string): Promise<number> {
  const entries = await wholeStatement(db, wallet);
  let running = 0;
  entries.forEach((entry, index) => {
    running += entry.amount;
    expect(entry.seq, `${label}: entry ${index} position`).toBe(index + 1);
    expect(entry.balance, `${label}: running balance after entry ${entry.seq} (${entry.kind} ${entry.amount})`).toBe(running);
    expect(entry.balance, `${label}: never negative`).toBeGreaterThanOrEqual(0);
  });
  const refIds = new Set(txs.map((tx) => tx.refId));
  const purchaseEntries = entries.filter((e) => e.kind === 'hold' || e.kind === 'final' || e.kind === 'refund');
  expect(
    purchaseEntries.filter((e) => !refIds.has(e.refId!)).map((e) => `${e.kind} ${e.refId}`),
    `${label}: wallet entries of no purchase`,
  ).toEqual([]);
  let spent = 0;
  let open = 0;
  for (const tx of txs) {
    const of = (kind: LedgerEntry['kind']) => entries.filter((e) => e.refId === tx.refId && e.kind === kind);
    const line = `${label}: ${tx.code} ${tx.target} (${tx.status}, ${tx.refId})`;
    expect(
      of('hold').map((e) => e.amount),
      `${line} held once at its price`,
    ).toEqual([-tx.price]);
    const final = tx.status === 'Sukses';
    const refunded = tx.status === 'Gagal' || tx.status === 'Rejected';
    expect(of('final').length, `${line}: finals`).toBe(final ? 1 : 0);
    expect(
      of('refund').map((e) => e.amount),
      `${line}: refunds`,
    ).toEqual(refunded ? [tx.price] : []);
    if (final) spent += tx.price;
    else if (!refunded) open += tx.price;
  }
  const credits = entries.filter((e) => e.kind === 'deposit' || e.kind === 'adjust').reduce((sum, e) => sum + e.amount, 0);
  const balance = await db.ledger.balance(wallet);
  expect(balance, `${label}: the ledger's balance is the sum of its entries`).toBe(running);
  expect(balance, `${label}: credits ${credits} − Sukses ${spent} − open holds ${open}`).toBe(credits - spent - open);
  expect(balance, `${label}: never negative`).toBeGreaterThanOrEqual(0);
  return balance;
}
