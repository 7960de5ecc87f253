import { describe, expect, it } from 'vitest';
import { computeReport } from '../../src/services/report.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';

let n = 0;
function tx(status: string, code = 'TSEL10', price = 10_500, productName = 'Telkomsel 10.000'): TransactionRecord {
  const at = new Date(Date.UTC(2026, 10, 1, 3, 0, n++)).toISOString();
  return {
    refId: `r${n}`,
    userId: 1,
    chatId: 1,
    code,
    productName,
    target: '0812',
    price,
    status,
    checks: 0,
    createdAt: at,
    updatedAt: at,
  };
}

describe('computeReport: the figures of /laporan', () => {
  it('counts every status; open statuses (Created, Pending, verbatim) count as in process', () => {
    const report = computeReport([
      tx('Sukses'),
      tx('Sukses'),
      tx('Gagal'),
      tx('Pending'),
      tx('Created'),
      tx('Menunggu'),
      tx('Unresolved'),
      tx('Rejected'),
    ]);
    expect(report.total).toBe(8);
    expect(report.counts).toEqual({ success: 2, failed: 1, pending: 3, unresolved: 1, rejected: 1 });
    expect(report.turnover).toBe(21_000);
    expect(report.successRate).toBeCloseTo(2 / 3);
  });

  it('has no success rate when nothing succeeded or failed, and a zero turnover', () => {
    const report = computeReport([tx('Pending'), tx('Rejected')]);
    expect(report.successRate).toBeUndefined();
    expect(report.turnover).toBe(0);
    expect(report.topProducts).toEqual([]);
    expect(computeReport([]).total).toBe(0);
    expect(computeReport([tx('Gagal')]).successRate).toBe(0);
  });

  it('ranks the top 10 Sukses products by count, then by sum, then by code', () => {
    const txs = [
      ...Array.from({ length: 3 }, () => tx('Sukses', 'XL5', 5_000, 'XL 5.000')),
      tx('Gagal', 'XL5', 5_000, 'XL 5.000'),
      tx('Sukses', 'B1', 2_000, 'Axis 2.000'),
      tx('Sukses', 'A1', 2_000, 'Axis 2.000 lama'),
      tx('Sukses', 'C1', 9_000, 'Indosat 9.000'),
      ...Array.from({ length: 10 }, (_, i) => tx('Sukses', `Z${i}`, 1_000, `Tri ${i}`)),
    ];
    const top = computeReport(txs).topProducts;
    expect(top).toHaveLength(10);
    expect(top[0]).toEqual({ code: 'XL5', name: 'XL 5.000', count: 3, sum: 15_000, margin: 0 });
    expect(top.slice(1, 4).map((line) => line.code)).toEqual(['C1', 'A1', 'B1']);
    expect(top.slice(4).map((line) => line.code)).toEqual(['Z0', 'Z1', 'Z2', 'Z3', 'Z4', 'Z5']);
  });

  it('sums the Sukses transactions per brand (brandOf the product name), largest sum first', () => {
    const report = computeReport([
      tx('Sukses', 'TSEL10', 10_500, 'Telkomsel 10.000'),
      tx('Sukses', 'TSEL5', 5_500, 'Telkomsel 5.000'),
      tx('Sukses', 'ML86', 20_000, 'Mobile Legends 86 Diamonds'),
      tx('Gagal', 'XL5', 5_000, 'XL 5.000'),
    ]);
    expect(report.brands).toEqual([
      { brand: 'Mobile Legends', count: 1, sum: 20_000, margin: 0 },
      { brand: 'Telkomsel', count: 2, sum: 16_000, margin: 0 },
    ]);
  });

  it('takes turnover at the stored sell prices (none stored: sell = cost), with cost and margin; failed ones count nowhere', () => {
    const sold = (status: string, code: string, price: number, name: string, sellPrice?: number) => {
      const record = tx(status, code, price, name);
      return sellPrice === undefined ? record : { ...record, sellPrice, margin: sellPrice - price };
    };
    const report = computeReport([
      sold('Sukses', 'TSEL10', 10_450, 'Telkomsel 10.000', 11_000),
      sold('Sukses', 'TSEL10', 10_450, 'Telkomsel 10.000', 12_000),
      sold('Sukses', 'XL5', 5_600, 'XL 5.000'),
      sold('Sukses', 'ML86', 20_000, 'Mobile Legends 86 Diamonds', 19_500),
      sold('Gagal', 'XL5', 5_600, 'XL 5.000', 9_000),
      sold('Pending', 'XL5', 5_600, 'XL 5.000', 9_000),
    ]);
    expect(report.turnover).toBe(11_000 + 12_000 + 5_600 + 19_500);
    expect(report.cost).toBe(10_450 * 2 + 5_600 + 20_000);
    expect(report.margin).toBe(550 + 1_550 + 0 - 500);
    expect(report.topProducts[0]).toEqual({ code: 'TSEL10', name: 'Telkomsel 10.000', count: 2, sum: 20_900, margin: 2_100 });
    expect(report.brands.find((line) => line.brand === 'Mobile Legends')?.margin).toBe(-500);
    expect(report.brands.find((line) => line.brand === 'XL')?.margin).toBe(0);
  });
});
