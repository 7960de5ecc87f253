import { describe, expect, it } from 'vitest';
import { operatorMismatch, operatorOfNumber, operatorOfProduct } from '../../src/domain/operators.ts';
import { resellerDemoProducts } from '../../tools/sandbox/reseller.ts';

const product = (code: string, product_name: string) => ({ code, product_name });

describe('operatorOfNumber', () => {
  it.each([
    ...['0811', '0812', '0813', '0821', '0822', '0823', '0851', '0852', '0853'].map((p) => [p, 'telkomsel'] as const),
    ...['0814', '0815', '0816', '0855', '0856', '0857', '0858'].map((p) => [p, 'indosat'] as const),
    ...['0817', '0818', '0819', '0859', '0877', '0878'].map((p) => [p, 'xl'] as const),
    ...['0831', '0832', '0833', '0838'].map((p) => [p, 'axis'] as const),
    ...['0895', '0896', '0897', '0898', '0899'].map((p) => [p, 'tri'] as const),
    ...['0881', '0882', '0883', '0884', '0885', '0886', '0887', '0888', '0889'].map((p) => [p, 'smartfren'] as const),
  ])('%s… is %s', (prefix, operator) => {
    expect(operatorOfNumber(`${prefix}12345678`)).toBe(operator);
  });

  it('reads +62 and 62 forms and separators', () => {
    expect(operatorOfNumber('+62 877-1234-5678')).toBe('xl');
    expect(operatorOfNumber('6287712345678')).toBe('xl');
  });

  it('knows nothing of unknown prefixes, landlines, meter numbers and game ids', () => {
    expect(operatorOfNumber('08001234567')).toBeUndefined();
    expect(operatorOfNumber('0211234567')).toBeUndefined();
    expect(operatorOfNumber('12345678901')).toBeUndefined();
    expect(operatorOfNumber('12345678 (1234)')).toBeUndefined();
  });
});

describe('operatorOfProduct', () => {
  it('knows the operator of every sandbox pulsa and data product, and of nothing else', () => {
    const expected: Record<string, string> = {
      Telkomsel: 'telkomsel',
      Indosat: 'indosat',
      XL: 'xl',
      Axis: 'axis',
      Tri: 'tri',
      Smartfren: 'smartfren',
    };
    for (const p of resellerDemoProducts) {
      const operator = operatorOfProduct({ code: p.code, product_name: p.name });
      expect([p.code, operator]).toEqual([p.code, p.category === 'pulsa' || p.category === 'data' ? expected[p.brand] : undefined]);
    }
  });

  it('reads brand names and aliases providers use', () => {
    expect(operatorOfProduct(product('S10', 'Simpati 10.000'))).toBe('telkomsel');
    expect(operatorOfProduct(product('BYU10', 'by.U 10.000'))).toBe('byu');
    expect(operatorOfProduct(product('I10', 'IM3 Ooredoo 10.000'))).toBe('indosat');
    expect(operatorOfProduct(product('T10', 'Three 10.000'))).toBe('tri');
  });
});

describe('operatorMismatch', () => {
  it('names the prefix, the number’s operator and the product’s', () => {
    expect(operatorMismatch(product('TSEL10', 'Telkomsel 10.000'), '087712345678')).toEqual({
      prefix: '0877',
      numberOperator: 'XL',
      productOperator: 'Telkomsel',
    });
    expect(operatorMismatch(product('XLD5GB', 'XL Data 5GB 30 Hari'), '+6281234567890')).toEqual({
      prefix: '0812',
      numberOperator: 'Telkomsel',
      productOperator: 'XL',
    });
  });

  it('stays quiet for a matching operator, XL and Axis (one family), by.U on Telkomsel', () => {
    expect(operatorMismatch(product('TSEL10', 'Telkomsel 10.000'), '081234567890')).toBeUndefined();
    expect(operatorMismatch(product('XL10', 'XL 10.000'), '083812345678')).toBeUndefined();
    expect(operatorMismatch(product('AXIS10', 'Axis 10.000'), '087712345678')).toBeUndefined();
    expect(operatorMismatch(product('BYU10', 'by.U 10.000'), '085212345678')).toBeUndefined();
  });

  it('stays quiet for PLN, e-wallets, games and unknown prefixes', () => {
    expect(operatorMismatch(product('PLN20', 'PLN Token 20.000'), '087712345678')).toBeUndefined();
    expect(operatorMismatch(product('DANA10', 'DANA 10.000'), '087712345678')).toBeUndefined();
    expect(operatorMismatch(product('OVO10', 'OVO 10.000'), '081234567890')).toBeUndefined();
    expect(operatorMismatch(product('ML86', 'Mobile Legends 86 Diamonds'), '087712345678')).toBeUndefined();
    expect(operatorMismatch(product('TSEL10', 'Telkomsel 10.000'), '080012345678')).toBeUndefined();
  });
});
