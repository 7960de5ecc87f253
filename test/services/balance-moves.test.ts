import { describe, expect, it } from 'vitest';
import { balanceMoves } from '../../src/services/balance-moves.ts';
import { dayRange } from '../../src/services/export-periods.ts';

const entry = (at: string, balance: number, account = 'DEMO…LER') => ({ at, balance, account });

describe('balanceMoves: the balance movements of a report period', () => {
  const all = [
    entry('2026-10-31T10:00:00.000Z', 700_000),
    // 23:30 WIB on 31 October: still October
    entry('2026-10-31T16:30:00.000Z', 650_000),
    // 00:30 WIB on 1 November
    entry('2026-10-31T17:30:00.000Z', 600_000),
    entry('2026-11-01T05:00:00.000Z', 450_000),
    entry('2026-11-01T09:00:00.000Z', 950_000),
  ];

  it('gives the first, last and lowest balance of the WIB days, the count, and the newest changes first', () => {
    const moves = balanceMoves(all, dayRange('2026-11-01', '2026-11-01'));
    expect(moves).toEqual({
      first: all[2],
      last: all[4],
      lowest: all[3],
      count: 3,
      recent: [
        { ...all[4], change: 500_000 },
        { ...all[3], change: -150_000 },
        { ...all[2], change: -50_000 },
      ],
    });
    expect(balanceMoves(all, dayRange('2026-10-31', '2026-10-31'))?.last).toEqual(all[1]);
  });

  it('is undefined for a period without readings; a change is only against the same account', () => {
    expect(balanceMoves(all, dayRange('2026-11-02', '2026-11-30'))).toBeUndefined();
    const switched = [entry('2026-11-01T01:00:00.000Z', 100, 'A'), entry('2026-11-01T02:00:00.000Z', 900, 'B')];
    expect(balanceMoves(switched, dayRange('2026-11-01', '2026-11-01'))?.recent.map((move) => move.change)).toEqual([undefined, undefined]);
  });

  it("an account's first reading is its starting point, not a change", () => {
    const fresh = [entry('2026-11-01T01:00:00.000Z', 1_000_000), entry('2026-11-01T02:00:00.000Z', 989_550)];
    expect(balanceMoves(fresh, dayRange('2026-11-01', '2026-11-01'))?.count).toBe(1);
    expect(balanceMoves(fresh.slice(0, 1), dayRange('2026-11-01', '2026-11-01'))?.count).toBe(0);
  });

  it('lists at most 5 changes', () => {
    const many = Array.from({ length: 9 }, (_, i) => entry(`2026-11-01T0${i}:00:00.000Z`, i * 1000));
    expect(balanceMoves(many, dayRange('2026-11-01', '2026-11-01'))?.recent).toHaveLength(5);
  });
});
