import { describe, expect, it } from 'vitest';
import { createI18n } from '../../src/bot/i18n.ts';
import type { Db } from '../../src/store/db.ts';
import type { ShopProfile } from '../../src/store/records/users.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import type { ReceiptTranslate } from '../../src/text/receipt.ts';
import { buildCustomerReceipt, formatCustomerReceipt } from '../../src/text/customer-receipt.ts';
import { withoutHiddenChars } from '../../src/text/format.ts';

const i18n = createI18n({ defaultLocale: 'id', db: {} as Db });
const inIndonesian: ReceiptTranslate = (key, variables) => i18n.t('id', key, variables);
const inEnglish: ReceiptTranslate = (key, variables) => i18n.t('en', key, variables);

/** A Sukses purchase bought at Rp 10.475 and sold at Rp 12.000. */
const sold: TransactionRecord = {
  refId: '01JDEMO0000000000000000001',
  userId: 1,
  chatId: 1,
  code: 'TSEL10',
  productName: 'Telkomsel 10.000',
  target: '081234567890',
  price: 10_475,
  sellPrice: 12_000,
  status: 'Sukses',
  sn: 'SN77001122',
  createdAt: '2026-11-22T07:05:00.000Z',
  updatedAt: '2026-11-22T07:06:00.000Z',
  settledAt: '2026-11-22T07:06:00.000Z',
  checks: 1,
};

const shop: ShopProfile = {
  name: 'Konter <Budi> & Co',
  address: 'Jl. Melati 5, Bandung',
  footer: 'Terima kasih, ditunggu order berikutnya!',
  target: 'masked',
};

describe('the customer receipt text', () => {
  it('shows the shop, product, masked target, SN, sell price, WIB time and ref, and never the cost', () => {
    const text = formatCustomerReceipt(buildCustomerReceipt(inIndonesian, sold, shop));
    expect(text).toContain('<b>Konter &lt;Budi&gt; &amp; Co</b>');
    expect(text).toContain('Jl. Melati 5, Bandung');
    expect(text).toContain('STRUK PEMBELIAN');
    expect(text).toContain('Produk: Telkomsel 10.000');
    expect(text).toContain('Nomor tujuan: 0812****7890');
    expect(text).not.toContain('081234567890');
    expect(text).toContain('SN: <code>SN77001122</code>');
    expect(text).toContain('Harga: <b>Rp 12.000</b>');
    expect(text).toContain('22 Nov 2026 14.06 WIB');
    expect(text).toContain(sold.refId);
    expect(text).toContain('Terima kasih, ditunggu order berikutnya!');
    expect(text).not.toContain('10.475');
    expect(text).not.toContain('10475');
    expect(text).not.toContain('TSEL10');
  });

  it('a profile stored before /toko refused hidden characters prints without them (a right-to-left override, a zero-width space)', () => {
    const hidden: ShopProfile = {
      name: 'Konter \u202eiduB',
      address: 'Jl.\u200b Melati 5',
      footer: 'Makasih\u2066!\nBuka 24 jam',
      target: 'masked',
    };
    const model = buildCustomerReceipt(inIndonesian, sold, hidden);
    expect([model.shopName, model.address, model.footer]).toEqual(['Konter iduB', 'Jl. Melati 5', 'Makasih!\nBuka 24 jam']);
    expect(withoutHiddenChars('Konter 👨\u200d👩\u200d👧')).toBe('Konter 👨\u200d👩\u200d👧');
  });

  it('the model itself holds no cost: every value differs from the cost in any spelling', () => {
    const model = buildCustomerReceipt(inIndonesian, sold, shop);
    expect(JSON.stringify(model)).not.toMatch(/10[.,]?475/);
    expect(model.total.value).toBe('Rp 12.000');
  });

  it('shows the target in full when the profile says so, and the price when no sell price was set', () => {
    const { sellPrice: _sellPrice, ...unsold } = sold;
    const text = formatCustomerReceipt(buildCustomerReceipt(inIndonesian, unsold, { ...shop, target: 'full' }));
    expect(text).toContain('Nomor tujuan: 081234567890');
    expect(text).toContain('Harga: <b>Rp 10.475</b>');
  });

  it('groups a PLN token in fours and keeps the name and kWh as details', () => {
    const pln: TransactionRecord = {
      ...sold,
      code: 'PLN20',
      productName: 'PLN Token 20.000',
      target: '12345678901',
      sn: '12345678901234567890/BUDI SANTOSO/R1/1300VA/13.8',
    };
    const text = formatCustomerReceipt(buildCustomerReceipt(inIndonesian, pln, shop));
    expect(text).toContain('Token: <code>1234 5678 9012 3456 7890</code>');
    expect(text).toContain('Keterangan: BUDI SANTOSO/R1/1300VA/13.8');
    expect(text).not.toContain('SN:');
  });

  it('without a profile: a neutral header, no shop lines', () => {
    const model = buildCustomerReceipt(inIndonesian, sold, undefined);
    expect(model.shopName).toBeUndefined();
    const text = formatCustomerReceipt(model);
    expect(text.split('\n')[0]).toBe('🧾 <b>STRUK PEMBELIAN</b>');
    expect(text).toContain('0812****7890');
    expect(text).not.toContain('Jl. Melati');
  });

  it('speaks English', () => {
    const text = formatCustomerReceipt(buildCustomerReceipt(inEnglish, sold, shop));
    expect(text).toContain('PURCHASE RECEIPT');
    expect(text).toContain('Product: Telkomsel 10.000');
    expect(text).toContain('Target number: 0812****7890');
    expect(text).toContain('Price: <b>Rp 12.000</b>');
    expect(text).toContain('SUCCESS');
    expect(text).not.toContain('10.475');
  });
});
