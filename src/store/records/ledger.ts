/**
 * A downline's wallet: the money a downline keeps with their upline, as a ledger of immutable
 * entries, and the rules every append follows, shared by both engines.
 *
 * - The balance is the sum of the wallet's entries. Each entry carries its position in the wallet
 *   (`seq`, 1, 2, …) and the balance after it (`balance`), so a statement page shows the running
 *   balance without summing what came before, and a check can prove the cached sums.
 * - An append that would take the balance below zero is refused (LedgerShortError, with the
 *   shortfall): nothing of that write is stored.
 * - Every entry has an idempotency key, unique in its wallet. Appending a key the wallet has
 *   returns the stored entry and changes nothing (a double tap, a replayed update, a retry after
 *   an unknown outcome); the same key with another kind, amount or refId is refused as a bug.
 * - A purchase (refId) is held at most once per wallet (a negative `hold`), and then closed at most
 *   once: by a `final` (Sukses: an amount-0 entry that marks the hold as spent, so the statement
 *   says what became of it and a later refund is refused) or by a `refund` of exactly the held
 *   amount (Gagal, or refused and never created). A final or refund without a hold is refused.
 *   A marker entry was chosen over changing the hold because entries never change.
 * - A wallet is kept with one upline at a time, the upline of its latest entry. An entry naming
 *   another upline is refused ('other-upline') while the wallet holds money or has an open hold
 *   (a hold without its final or refund); once it is empty (balance 0, every hold closed) the
 *   entry moves it to the new upline: a removed downline who joins someone else starts there with
 *   the wallet their former upline paid out, and no rupiah is ever counted under two uplines.
 * - `adjust` is the upline's manual correction (either sign), with who made it and why.
 *
 * The hold is written in the same store write (one SQL transaction) as the purchase it pays for,
 * and its refund in the same one as the final status (`transactions.createMany` / `settle` with
 * `ledger`); see contract.ts.
 */
import { z } from 'zod';
import { StoreError } from '../errors.ts';
import { isoDate, validated } from './validation.ts';

export const ledgerKinds = ['deposit', 'hold', 'final', 'refund', 'adjust'] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

/** Larger single amounts are refused, so that sums of many stay exact integers. */
export const maxLedgerAmount = 1_000_000_000_000;

const amount = z.number().int().min(-maxLedgerAmount).max(maxLedgerAmount);

export const ledgerEntrySchema = z.object({
  /** The wallet's owner: the downline's Telegram user id. */
  wallet: z.number().int(),
  /** The upline the money is kept with (the reseller whose provider account the downline buys through). */
  upline: z.number().int(),
  /** Position in the wallet: 1 for its first entry, one more for each after it. */
  seq: z.number().int().positive(),
  kind: z.enum(ledgerKinds),
  /** Signed integer rupiah: credits positive, a hold negative, a final 0. */
  amount,
  /** The wallet's balance after this entry (never negative). */
  balance: z.number().int().nonnegative(),
  /** Idempotency key, unique in the wallet. */
  key: z.string().min(1).max(200),
  /** The purchase a hold, final or refund is of (may name a deposit request on a deposit). */
  refId: z.string().min(1).max(200).optional(),
  /** Who made an adjustment (Telegram user id). */
  by: z.number().int().optional(),
  /** Why (an adjustment's reason as typed). */
  reason: z.string().min(1).max(500).optional(),
  createdAt: isoDate,
});
export type LedgerEntry = z.output<typeof ledgerEntrySchema>;

/** An entry to append: position, balance after and (unless given) time are the store's. */
export type NewLedgerEntry = Omit<LedgerEntry, 'seq' | 'balance' | 'createdAt'> & { createdAt?: string };

/** What an append of one entry did: `created` false when its key was there (the stored entry, nothing changed). */
export interface LedgerAppend {
  entry: LedgerEntry;
  created: boolean;
}

/** Why the ledger refused an append. */
export type LedgerRefusal =
  /** The balance would go below zero (LedgerShortError). */
  | 'insufficient'
  /** A second hold of one purchase. */
  | 'held-already'
  /** A final or refund of a purchase the wallet has no hold of. */
  | 'not-held'
  /** A final or refund of a purchase already finalled or refunded. */
  | 'closed-already'
  /** An entry naming another upline than the wallet's while it holds money or an open hold. */
  | 'other-upline'
  /** A key the wallet has, with another kind, amount or refId. */
  | 'key-reused';

/** An append the ledger's rules refuse; nothing of its write was stored. */
export class LedgerRefusedError extends StoreError {
  constructor(
    readonly reason: LedgerRefusal,
    readonly wallet: number,
    message: string,
  ) {
    super('refused', message);
    this.name = 'LedgerRefusedError';
  }
}

/** Not enough in the wallet: `shortBy` rupiah more would have been needed. */
export class LedgerShortError extends LedgerRefusedError {
  constructor(
    wallet: number,
    readonly balance: number,
    readonly shortBy: number,
  ) {
    super('insufficient', wallet, `Wallet ${wallet} holds Rp ${balance}, short by Rp ${shortBy}; nothing was written.`);
    this.name = 'LedgerShortError';
  }
}

/**
 * What an engine knows of one wallet when it appends: enough for the rules, not every entry.
 * `byKey` and `byRef` hold (at least) the wallet's entries with the keys and refIds being appended.
 */
export interface WalletState {
  wallet: number;
  /** The upline of the wallet's latest entry (who keeps it now); undefined for a wallet without entries. */
  upline: number | undefined;
  /**
   * Holds without their final or refund. An engine that loads only some entries may leave it
   * undefined unless an entry being appended names another upline than `upline` (then the rules
   * need it, and refuse to guess).
   */
  openHolds: number | undefined;
  /** Entries so far. */
  seq: number;
  balance: number;
  byKey: Map<string, LedgerEntry>;
  byRef: Map<string, LedgerEntry[]>;
}

/** A wallet without entries. */
export function emptyWalletState(wallet: number): WalletState {
  return { wallet, upline: undefined, openHolds: 0, seq: 0, balance: 0, byKey: new Map(), byRef: new Map() };
}

/** Who keeps a wallet with entries now, what it holds and how many of its purchases are still held. */
export interface WalletSummary {
  wallet: number;
  /** The upline of the latest entry. */
  upline: number;
  balance: number;
  openHolds: number;
}

/** A wallet's summary from all its entries (seq order); undefined without entries. */
export function walletSummaryOf(wallet: number, entries: readonly LedgerEntry[]): WalletSummary | undefined {
  const state = walletStateOf(wallet, entries);
  if (state.upline === undefined) return undefined;
  return { wallet, upline: state.upline, balance: state.balance, openHolds: state.openHolds ?? 0 };
}

/** Whether the wallet may be kept with another upline: nothing in it, nothing held. */
export function isMovable(summary: Pick<WalletSummary, 'balance' | 'openHolds'> | undefined): boolean {
  return summary === undefined || (summary.balance === 0 && summary.openHolds === 0);
}

/** The state of a wallet of `entries` (all of them, in seq order). */
export function walletStateOf(wallet: number, entries: readonly LedgerEntry[]): WalletState {
  const state = emptyWalletState(wallet);
  for (const entry of entries) record(state, entry);
  return state;
}

/** Which keys and refIds of each wallet an append of `inputs` looks at (what an engine loads into its WalletState). */
export function ledgerNeeds(inputs: readonly NewLedgerEntry[]): Map<number, { keys: string[]; refIds: string[] }> {
  const needs = new Map<number, { keys: string[]; refIds: string[] }>();
  for (const input of inputs) {
    const need = needs.get(input.wallet) ?? { keys: [], refIds: [] };
    need.keys.push(input.key);
    if (input.refId !== undefined) need.refIds.push(input.refId);
    needs.set(input.wallet, need);
  }
  return needs;
}

function record(state: WalletState, entry: LedgerEntry): void {
  state.upline = entry.upline;
  if (state.openHolds !== undefined) {
    if (entry.kind === 'hold') state.openHolds += 1;
    else if (entry.kind === 'final' || entry.kind === 'refund') state.openHolds -= 1;
  }
  state.seq = entry.seq;
  state.balance = entry.balance;
  state.byKey.set(entry.key, entry);
  if (entry.refId !== undefined) state.byRef.set(entry.refId, [...(state.byRef.get(entry.refId) ?? []), entry]);
}

const invalid = (message: string) => new StoreError('invalid', `Refusing a ledger entry: ${message}.`);

/** The shape each kind must have (sign of the amount, refId, who and why). */
function checkShape(input: NewLedgerEntry): void {
  const { kind, amount: value } = input;
  if (kind === 'deposit' && value <= 0) throw invalid('a deposit is positive');
  if (kind === 'hold' && value >= 0) throw invalid('a hold is negative');
  if (kind === 'final' && value !== 0) throw invalid('a final moves no money (amount 0)');
  if (kind === 'refund' && value <= 0) throw invalid('a refund is positive');
  if (kind === 'adjust' && (value === 0 || input.by === undefined || input.reason === undefined)) {
    throw invalid('an adjustment moves money and says who made it and why');
  }
  if ((kind === 'hold' || kind === 'final' || kind === 'refund') && input.refId === undefined)
    throw invalid(`a ${kind} names its purchase`);
}

/** The purchase rules: one hold per refId, closed once by a final or a refund of exactly the hold. */
function checkPurchase(state: WalletState, input: NewLedgerEntry): void {
  if (input.kind !== 'hold' && input.kind !== 'final' && input.kind !== 'refund') return;
  const entries = state.byRef.get(input.refId!) ?? [];
  const hold = entries.find((entry) => entry.kind === 'hold');
  if (input.kind === 'hold') {
    if (hold)
      throw new LedgerRefusedError('held-already', state.wallet, `Purchase ${input.refId} is held in wallet ${state.wallet} already.`);
    return;
  }
  if (!hold) throw new LedgerRefusedError('not-held', state.wallet, `Wallet ${state.wallet} holds nothing for ${input.refId}.`);
  const closed = entries.find((entry) => entry.kind === 'final' || entry.kind === 'refund');
  if (closed) {
    throw new LedgerRefusedError('closed-already', state.wallet, `The hold of ${input.refId} has its ${closed.kind} already.`);
  }
  if (input.kind === 'refund' && input.amount !== -hold.amount) {
    throw invalid(`the refund of ${input.refId} is the held Rp ${-hold.amount}, not Rp ${input.amount}`);
  }
}

/**
 * Applies one append to `state` (which then includes it) under every rule above; throws
 * LedgerRefusedError or StoreError('invalid') and leaves `state` as it was if refused.
 */
export function appendEntry(state: WalletState, input: NewLedgerEntry, at: Date): LedgerAppend {
  if (input.wallet !== state.wallet) throw new Error(`unreachable: an entry of wallet ${input.wallet} applied to ${state.wallet}`);
  const existing = state.byKey.get(input.key);
  if (existing) {
    if (existing.kind === input.kind && existing.amount === input.amount && existing.refId === input.refId) {
      return { entry: existing, created: false };
    }
    throw new LedgerRefusedError(
      'key-reused',
      state.wallet,
      `Key ${input.key} of wallet ${state.wallet} is a ${existing.kind} of Rp ${existing.amount} already.`,
    );
  }
  checkShape(input);
  if (state.upline !== undefined && state.upline !== input.upline) {
    if (state.openHolds === undefined) {
      throw new Error(`unreachable: wallet ${state.wallet} was loaded without its open holds for an entry of another upline`);
    }
    if (!isMovable({ balance: state.balance, openHolds: state.openHolds })) {
      throw new LedgerRefusedError(
        'other-upline',
        state.wallet,
        `Wallet ${state.wallet} is kept with upline ${state.upline} (Rp ${state.balance}, ${state.openHolds} open holds); it moves to another upline only when empty.`,
      );
    }
  }
  checkPurchase(state, input);
  const balance = state.balance + input.amount;
  if (balance < 0) throw new LedgerShortError(state.wallet, state.balance, -balance);
  const entry = validated(
    ledgerEntrySchema,
    { ...input, seq: state.seq + 1, balance, createdAt: input.createdAt ?? at.toISOString() },
    'ledger entry',
  );
  record(state, entry);
  return { entry, created: true };
}

/**
 * Applies `inputs` in order, all or none: the states (by wallet, from `stateOf`, each asked for
 * once) include every new entry; a refusal throws before the caller stores anything. The
 * results are in input order; the entries to store are those `created`.
 */
export function appendEntries(stateOf: (wallet: number) => WalletState, inputs: readonly NewLedgerEntry[], at: Date): LedgerAppend[] {
  const states = new Map<number, WalletState>();
  return inputs.map((input) => {
    let state = states.get(input.wallet);
    if (!state) states.set(input.wallet, (state = stateOf(input.wallet)));
    return appendEntry(state, input, at);
  });
}

/** A statement page's entries, newest first (default 10 from the newest). */
export interface StatementOptions {
  limit?: number;
  offset?: number;
}
