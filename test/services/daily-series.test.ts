import { describe, expect, it } from 'vitest';
import { dailySeries } from '../../src/services/daily-series.ts';
import { dayRange } from '../../src/services/export-periods.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';

let n = 0;
function tx(createdAt: string, status: string, price: number, extra: { sellPrice?: number; margin?: number } = {}): TransactionRecord {
  n++;
  return {
    refId: `r${n}`,
    userId: 1,
    chatId: 1,
    code: 'TSEL10',
    productName: 'Telkomsel 10.000',
    target: '0812',
    price,
    status,
    checks: 0,
    createdAt,
    updatedAt: createdAt,
    ...extra,
  };
}

describe('dailySeries: turnover and margin per WIB day (the chart of /laporan)', () => {
  it('has one point per WIB day of the range, 0 on days without sales', () => {
    const series = dailySeries([], dayRange('2026-10-30', '2026-11-02'));
    expect(series).toEqual([
      { day: '2026-10-30', turnover: 0, margin: 0 },
      { day: '2026-10-31', turnover: 0, margin: 0 },
      { day: '2026-11-01', turnover: 0, margin: 0 },
      { day: '2026-11-02', turnover: 0, margin: 0 },
    ]);
  });

  it('puts 23:30 WIB on the last day of a month on that day and 00:30 WIB on the first of the next', () => {
    const txs = [
      // 23:30 WIB, 31 October = 16:30 UTC
      tx('2026-10-31T16:30:00.000Z', 'Sukses', 10_000, { sellPrice: 11_000, margin: 1_000 }),
      // 00:30 WIB, 1 November = 17:30 UTC on 31 October
      tx('2026-10-31T17:30:00.000Z', 'Sukses', 5_000, { sellPrice: 6_000, margin: 1_000 }),
    ];
    const series = dailySeries(txs, dayRange('2026-10-31', '2026-11-01'));
    expect(series).toEqual([
      { day: '2026-10-31', turnover: 11_000, margin: 1_000 },
      { day: '2026-11-01', turnover: 6_000, margin: 1_000 },
    ]);
  });

  it('counts Sukses only; turnover is the sell price, or the cost without one; margin 0 without one', () => {
    const txs = [
      tx('2026-11-01T03:00:00.000Z', 'Sukses', 10_500),
      tx('2026-11-01T04:00:00.000Z', 'Sukses', 5_000, { sellPrice: 7_000, margin: 2_000 }),
      tx('2026-11-01T05:00:00.000Z', 'Gagal', 50_000, { sellPrice: 60_000, margin: 10_000 }),
      tx('2026-11-01T06:00:00.000Z', 'Pending', 50_000),
      tx('2026-11-01T07:00:00.000Z', 'Sukses', 2_000, { sellPrice: 1_500, margin: -500 }),
    ];
    expect(dailySeries(txs, dayRange('2026-11-01', '2026-11-01'))).toEqual([{ day: '2026-11-01', turnover: 19_000, margin: 1_500 }]);
  });

  it('leaves out transactions outside the range', () => {
    const txs = [tx('2026-11-05T03:00:00.000Z', 'Sukses', 10_500)];
    expect(dailySeries(txs, dayRange('2026-11-01', '2026-11-02')).every((point) => point.turnover === 0)).toBe(true);
  });
});
