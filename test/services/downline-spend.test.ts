import { describe, expect, it } from 'vitest';
import { checkDailySpend, fitsDailyLimit, walletSpend } from '../../src/services/downline-spend.ts';
import { tallyThroughUpline } from '../../src/services/downline-figures.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import type { UserRecord } from '../../src/store/records/users.ts';

const upline = 700_000_001;
const downline = 700_000_002;

/** A downline's purchase through `upline` (or none: a purchase of their own, before they joined). */
function tx(price: number, status: string, createdAt: string, through: number | null = upline): TransactionRecord {
  return {
    refId: `R${price}${status}${createdAt}`,
    userId: downline,
    chatId: downline,
    code: 'TSEL10',
    productName: 'Telkomsel 10.000',
    target: '081234567890',
    price,
    ...(through === null ? {} : { upline: { id: through, cost: price - 500, margin: 500 } }),
    status,
    createdAt,
    updatedAt: createdAt,
    checks: 0,
  };
}

/** The two reads checkDailySpend makes, over `txs`, recording the range it asked for. */
function fakeDb(dailyLimit: number | undefined, txs: TransactionRecord[]) {
  const asked: Array<{ userId: number; from: string; to: string }> = [];
  const user = {
    id: downline,
    firstName: 'Sari',
    active: true,
    createdAt: '2026-11-01T00:00:00.000Z',
    membership: {
      uplineId: upline,
      levelId: 'bronze',
      status: 'active',
      joinedAt: '2026-11-01T00:00:00.000Z',
      requestId: 'req',
      ...(dailyLimit === undefined ? {} : { dailyLimit }),
    },
  } as UserRecord;
  const db = {
    users: { get: (id: number) => Promise.resolve(id === downline ? user : undefined) },
    transactions: {
      listByUserBetween: (userId: number, from: Date, to: Date) => {
        asked.push({ userId, from: from.toISOString(), to: to.toISOString() });
        return Promise.resolve(
          txs.filter((t) => t.userId === userId && t.createdAt >= from.toISOString() && t.createdAt < to.toISOString()),
        );
      },
    },
  } as unknown as Parameters<typeof checkDailySpend>[0];
  return { db, asked };
}

// 2026-12-02 10:00 WIB.
const now = new Date('2026-12-02T03:00:00.000Z');

describe('the daily spend limit of a downline', () => {
  it('counts what was held: every status but Gagal and Rejected, only wallet purchases', () => {
    const at = '2026-12-02T01:00:00.000Z';
    const spent = walletSpend([
      tx(10_000, 'Sukses', at),
      tx(20_000, 'Pending', at),
      tx(30_000, 'Created', at),
      tx(40_000, 'Unresolved', at),
      tx(50_000, 'PROSES', at),
      tx(1_000, 'Gagal', at),
      tx(2_000, 'Rejected', at),
      tx(4_000, 'Sukses', at, null),
    ]);
    expect(spent).toBe(150_000);
  });

  it('fits up to the limit exactly; without a limit everything fits', () => {
    expect(fitsDailyLimit(100_000, 60_000, 40_000)).toEqual({ fits: true, limit: 100_000, spent: 60_000, left: 40_000 });
    expect(fitsDailyLimit(100_000, 60_000, 40_001)).toEqual({ fits: false, limit: 100_000, spent: 60_000, left: 40_000 });
    expect(fitsDailyLimit(100_000, 120_000, 1)).toEqual({ fits: false, limit: 100_000, spent: 120_000, left: 0 });
    expect(fitsDailyLimit(undefined, 5_000_000, 5_000_000)).toEqual({ fits: true, spent: 5_000_000 });
  });

  it("reads the downline's transactions of the WIB day of now: 00:00 WIB is 17:00 UTC the day before", async () => {
    const { db, asked } = fakeDb(50_000, [
      tx(20_000, 'Sukses', '2026-12-01T16:59:59.999Z'), // 23:59 WIB yesterday
      tx(30_000, 'Sukses', '2026-12-01T17:00:00.000Z'), // 00:00 WIB today
      tx(15_000, 'Pending', '2026-12-02T02:00:00.000Z'),
      tx(99_000, 'Gagal', '2026-12-02T02:30:00.000Z'),
    ]);
    expect(await checkDailySpend(db, downline, 5_000, now)).toEqual({ fits: true, limit: 50_000, spent: 45_000, left: 5_000 });
    expect(await checkDailySpend(db, downline, 5_001, now)).toEqual({ fits: false, limit: 50_000, spent: 45_000, left: 5_000 });
    expect(asked[0]).toEqual({ userId: downline, from: '2026-12-01T17:00:00.000Z', to: '2026-12-02T17:00:00.000Z' });
  });

  it('a downline without a limit, and a user who is not a downline, always fit without reading transactions', async () => {
    const { db, asked } = fakeDb(undefined, [tx(10_000_000, 'Sukses', '2026-12-02T01:00:00.000Z')]);
    expect(await checkDailySpend(db, downline, 1_000_000_000, now)).toEqual({ fits: true, spent: 0 });
    expect(await checkDailySpend(db, 123, 1, now)).toEqual({ fits: true, spent: 0 });
    expect(asked).toEqual([]);
  });
});

describe("the upline's tally of a downline's purchases", () => {
  it('counts only purchases through this upline, and sales, cost and margin of the Sukses ones only', () => {
    const at = '2026-12-02T01:00:00.000Z';
    const tally = tallyThroughUpline(
      [
        tx(11_000, 'Sukses', at),
        tx(22_000, 'Sukses', at),
        tx(11_000, 'Gagal', at),
        tx(5_500, 'Pending', at),
        tx(9_000, 'Sukses', at, 42),
        tx(7_000, 'Sukses', at, null),
      ],
      upline,
    );
    expect(tally).toEqual({ count: 4, success: 2, failed: 1, other: 1, sales: 33_000, cost: 32_000, margin: 1_000 });
  });
});
