import { describe, expect, it } from 'vitest';
import { auditWallet } from '../../src/services/wallet-audit.ts';
import type { LedgerEntry } from '../../src/store/records/ledger.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';

const at = '2026-12-01T03:00:00.000Z';
const wallet = 700_000_002;
const upline = 700_000_001;

/** Entries with positions and running balances as the store writes them. */
function chain(...moves: Array<Omit<LedgerEntry, 'wallet' | 'upline' | 'seq' | 'balance' | 'createdAt'>>): LedgerEntry[] {
  let balance = 0;
  return moves.map((move, index) => ({ ...move, wallet, upline, seq: index + 1, balance: (balance += move.amount), createdAt: at }));
}

function purchase(refId: string, status: string, price = 10_950): TransactionRecord {
  return {
    refId,
    userId: wallet,
    chatId: wallet,
    code: 'TSEL10',
    productName: 'Telkomsel 10.000',
    target: '081234567890',
    price,
    status,
    createdAt: at,
    updatedAt: at,
    checks: 0,
    upline: { id: upline, cost: 10_450, margin: price - 10_450 },
  };
}

const good = chain(
  { kind: 'deposit', amount: 50_000, key: 'deposit:a' },
  { kind: 'hold', amount: -10_950, key: 'hold:r1', refId: 'r1' },
  { kind: 'final', amount: 0, key: 'final:r1', refId: 'r1' },
  { kind: 'hold', amount: -10_950, key: 'hold:r2', refId: 'r2' },
  { kind: 'refund', amount: 10_950, key: 'refund:r2', refId: 'r2' },
  { kind: 'hold', amount: -10_950, key: 'hold:r3', refId: 'r3' },
);

describe('auditWallet', () => {
  it('a wallet whose entries and purchases agree: no finding, the open hold counted', () => {
    const audit = auditWallet(wallet, good, 28_100, [purchase('r1', 'Sukses'), purchase('r2', 'Gagal'), purchase('r3', 'Pending')]);
    expect(audit).toEqual({ wallet, balance: 28_100, held: 10_950, entries: 6, findings: [] });
  });

  it('names a running balance that is not the sum, a balance the store reports wrong, and purchases whose entries disagree', () => {
    const broken = good.map((entry) => (entry.seq === 4 ? { ...entry, balance: 40_000 } : entry));
    const audit = auditWallet(wallet, broken, 30_000, [
      purchase('r1', 'Gagal'),
      purchase('r2', 'Gagal'),
      purchase('r3', 'Pending'),
      purchase('r4', 'Sukses'),
    ]);
    expect(audit.findings).toEqual([
      { wallet, kind: 'chain', detail: 'entry 4 says balance 40000, its entries sum to 28100' },
      { wallet, kind: 'sum', detail: 'the store says 30000, the entries sum to 28100' },
      { wallet, kind: 'purchase', refId: 'r1', detail: 'Gagal purchase closed by final, expected refund' },
      { wallet, kind: 'purchase', refId: 'r4', detail: 'Sukses purchase of 10950 has no hold' },
    ]);
  });

  it('an Unresolved purchase may stay held or be decided either way; a hold without its purchase is named', () => {
    const entries = chain(
      { kind: 'deposit', amount: 20_000, key: 'deposit:a' },
      { kind: 'hold', amount: -10_950, key: 'hold:r1', refId: 'r1' },
      { kind: 'hold', amount: -5_000, key: 'hold:x', refId: 'x' },
    );
    const audit = auditWallet(wallet, entries, 4_050, [purchase('r1', 'Unresolved')]);
    expect(audit.held).toBe(10_950);
    expect(audit.findings).toEqual([{ wallet, kind: 'purchase', refId: 'x', detail: 'a hold without its purchase' }]);
  });
});
