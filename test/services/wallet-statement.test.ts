import { describe, expect, it } from 'vitest';
import { walletStatementBetween } from '../../src/services/wallet-statement.ts';
import { dayRange } from '../../src/services/export-periods.ts';
import type { LedgerEntry } from '../../src/store/records/ledger.ts';
import type { StatementOptions } from '../../src/store/records/ledger.ts';

/** A wallet of 1.500 entries, one an hour from 2026-11-01 00:00 WIB: a deposit of Rp 1.000, then alternately a Rp 300 hold and its final. */
function ledger(reads: StatementOptions[]) {
  const entries: LedgerEntry[] = [];
  let balance = 0;
  for (let seq = 1; seq <= 1500; seq++) {
    const amount = seq % 3 === 1 ? 1000 : seq % 3 === 2 ? -300 : 0;
    balance += amount;
    const createdAt = new Date(Date.parse('2026-10-31T17:00:00Z') + (seq - 1) * 3600_000).toISOString();
    entries.push({
      wallet: 7,
      upline: 1,
      seq,
      kind: amount > 0 ? 'deposit' : amount < 0 ? 'hold' : 'final',
      amount,
      balance,
      key: `k${seq}`,
      createdAt,
    });
  }
  return {
    statement: (_wallet: number, options: StatementOptions = {}) => {
      reads.push(options);
      const newestFirst = [...entries].reverse();
      const offset = options.offset ?? 0;
      return Promise.resolve(newestFirst.slice(offset, offset + (options.limit ?? 10)));
    },
  };
}

describe('a wallet statement over whole WIB days', () => {
  it("keeps the period's entries only, oldest first, with the balances around them, and stops reading at the first older entry", async () => {
    const reads: StatementOptions[] = [];
    // 2026-11-10 WIB: entries 217..240 (hours 216..239 after the first).
    const statement = await walletStatementBetween(ledger(reads), 7, dayRange('2026-11-10', '2026-11-10'));
    expect(statement?.entries.map((e) => e.seq)).toEqual(Array.from({ length: 24 }, (_, i) => 217 + i));
    expect(statement?.opening).toBe(statement!.entries[0]!.balance - statement!.entries[0]!.amount);
    expect(statement?.closing).toBe(statement?.entries.at(-1)?.balance);
    expect(statement?.credited).toBe(8 * 1000);
    expect(statement?.debited).toBe(8 * 300);
    expect(statement!.opening + statement!.credited - statement!.debited).toBe(statement!.closing);
    // 1.500 entries, newest first in pages of 500: the day is in the third page, and nothing after it is read.
    expect(reads.map((r) => r.offset)).toEqual([0, 500, 1000]);
  });

  it('is undefined for a period without entries (or a wallet without any)', async () => {
    expect(await walletStatementBetween(ledger([]), 7, dayRange('2026-01-01', '2026-01-31'))).toBeUndefined();
    expect(await walletStatementBetween({ statement: () => Promise.resolve([]) }, 7, dayRange('2026-11-10', '2026-11-10'))).toBeUndefined();
  });
});
