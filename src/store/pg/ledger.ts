/**
 * The downlines' wallets on PostgreSQL (the contract's LedgerStore). An append locks each wallet
 * row it touches (`SELECT … FOR UPDATE`, wallets in id order so two appends never wait on each
 * other crosswise), reads only the entries the rules need (those of the keys and refIds being
 * appended), applies records/ledger.ts's rules and inserts the new entries with the wallet's new
 * sum, in the caller's transaction: the purchase's or settlement's own when it goes with one.
 * The wallet row's `upline` is who keeps it now (its latest entry's); an append naming another
 * upline also counts the wallet's open holds, as the rules then need them (a wallet moves only
 * when empty).
 */
import type { LedgerStore } from '../contract.ts';
import {
  appendEntries,
  emptyWalletState,
  ledgerNeeds,
  type LedgerAppend,
  type LedgerEntry,
  type NewLedgerEntry,
  type WalletState,
  type WalletSummary,
} from '../records/ledger.ts';
import { buildOutboxItem } from '../records/outbox.ts';
import { column, inTransaction, insertOutbox, page, type PgConnections, type Queryable } from './db.ts';

/** How many of the wallet's holds have no final or refund yet. */
async function openHolds(db: Queryable, wallet: number): Promise<number> {
  const [count] = await column<string>(
    db,
    'open',
    `SELECT count(*) AS open FROM ledger_entries h WHERE h.wallet = $1 AND h.kind = 'hold' AND NOT EXISTS (
       SELECT 1 FROM ledger_entries c WHERE c.wallet = h.wallet AND c.ref_id = h.ref_id AND c.kind IN ('final', 'refund'))`,
    [wallet],
  );
  return Number(count ?? 0);
}

/**
 * The wallet's state as the rules need it, its row locked (created with 0 if new: the transaction
 * decides whether it stays). `uplines` are those the appended entries name.
 */
async function lockedWallet(
  db: Queryable,
  wallet: number,
  uplines: readonly number[],
  keys: string[],
  refIds: string[],
): Promise<WalletState> {
  await db.query('INSERT INTO ledger_wallets (wallet, upline, balance, entries) VALUES ($1, $2, 0, 0) ON CONFLICT (wallet) DO NOTHING', [
    wallet,
    uplines[0],
  ]);
  const { rows } = await db.query<{ upline: string; balance: string; entries: number }>(
    'SELECT upline, balance, entries FROM ledger_wallets WHERE wallet = $1 FOR UPDATE',
    [wallet],
  );
  const row = rows[0];
  if (!row) throw new Error(`unreachable: wallet ${wallet} has no row after its insert`);
  const state = emptyWalletState(wallet);
  state.seq = row.entries;
  state.balance = Number(row.balance);
  // A row just made for this append has no entries: its upline is this entry's, not a stored one.
  state.upline = row.entries > 0 ? Number(row.upline) : undefined;
  // Only a move to another upline needs them (a new wallet has none: emptyWalletState's 0).
  if (state.upline !== undefined) state.openHolds = uplines.some((u) => u !== state.upline) ? await openHolds(db, wallet) : undefined;
  const related = await column<LedgerEntry>(
    db,
    'entry',
    'SELECT entry FROM ledger_entries WHERE wallet = $1 AND (key = ANY($2) OR ref_id = ANY($3)) ORDER BY seq',
    [wallet, keys, refIds],
  );
  for (const entry of related) {
    state.byKey.set(entry.key, entry);
    if (entry.refId !== undefined) state.byRef.set(entry.refId, [...(state.byRef.get(entry.refId) ?? []), entry]);
  }
  return state;
}

/** Appends `inputs` inside the caller's transaction `db` (all or none with it); resolves what each did. */
export async function appendLedger(db: Queryable, inputs: readonly NewLedgerEntry[], at: Date): Promise<LedgerAppend[]> {
  if (inputs.length === 0) return [];
  const states = new Map<number, WalletState>();
  const needs = [...ledgerNeeds(inputs)].sort(([a], [b]) => a - b);
  for (const [wallet, need] of needs) {
    const uplines = [...new Set(inputs.filter((input) => input.wallet === wallet).map((input) => input.upline))];
    states.set(wallet, await lockedWallet(db, wallet, uplines, need.keys, need.refIds));
  }
  const appends = appendEntries((wallet) => states.get(wallet)!, inputs, at);
  for (const { entry, created } of appends) {
    if (!created) continue;
    await db.query(
      `INSERT INTO ledger_entries (wallet, seq, key, ref_id, kind, amount, balance, created_at, entry)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [entry.wallet, entry.seq, entry.key, entry.refId ?? null, entry.kind, entry.amount, entry.balance, entry.createdAt, entry],
    );
  }
  for (const state of states.values()) {
    // A wallet that moved is kept with the upline of its latest entry.
    await db.query('UPDATE ledger_wallets SET balance = $2, entries = $3, upline = COALESCE($4, upline) WHERE wallet = $1', [
      state.wallet,
      state.balance,
      state.seq,
      state.upline ?? null,
    ]);
  }
  return appends;
}

export function createPgLedger(pool: PgConnections, now: () => Date): LedgerStore {
  return {
    append: (inputs, options = {}) =>
      inTransaction(pool, async (client) => {
        const at = now();
        const appends = await appendLedger(client, inputs, at);
        const created = appends.filter((append) => append.created).map((append) => append.entry);
        // The messages are committed with the entries they tell of.
        if (created.length > 0 && options.notify)
          for (const item of options.notify(created)) await insertOutbox(client, buildOutboxItem(item, at));
        return appends;
      }),
    async balance(wallet) {
      const [balance] = await column<string>(pool, 'balance', 'SELECT balance FROM ledger_wallets WHERE wallet = $1', [wallet]);
      return balance === undefined ? 0 : Number(balance);
    },
    statement: (wallet, options) =>
      column<LedgerEntry>(pool, 'entry', 'SELECT entry FROM ledger_entries WHERE wallet = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3', [
        wallet,
        ...page(options),
      ]),
    async summary(wallet): Promise<WalletSummary | undefined> {
      const { rows } = await pool.query<{ upline: string; balance: string; entries: number }>(
        'SELECT upline, balance, entries FROM ledger_wallets WHERE wallet = $1',
        [wallet],
      );
      const row = rows[0];
      if (!row || row.entries === 0) return undefined;
      return { wallet, upline: Number(row.upline), balance: Number(row.balance), openHolds: await openHolds(pool, wallet) };
    },
    byRef: (wallet, refId) =>
      column<LedgerEntry>(pool, 'entry', 'SELECT entry FROM ledger_entries WHERE wallet = $1 AND ref_id = $2 ORDER BY seq', [
        wallet,
        refId,
      ]),
  };
}
