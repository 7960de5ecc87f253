import { describe, expect, it } from 'vitest';
import { InlineKeyboard } from 'grammy';
import { createI18n } from '../../src/bot/i18n.ts';
import type { Db } from '../../src/store/db.ts';
import { formatReceipt, statusWord, type ReceiptTranslate } from '../../src/text/receipt.ts';
import { groupToken, plnToken } from '../../src/text/token.ts';
import { addCopySnButton } from '../../src/bot/keyboards/receipt.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';

// The production translate function (it escapes variables); out of context it never reads the store.
const i18n = createI18n({ defaultLocale: 'id', db: {} as Db });
const inIndonesian: ReceiptTranslate = (key, variables) => i18n.t('id', key, variables);
const inEnglish: ReceiptTranslate = (key, variables) => i18n.t('en', key, variables);

/** A Sukses transaction created 22 Nov 2026 07:05 UTC (14.05 WIB). */
const settled: TransactionRecord = {
  refId: '01KAMZ0000AAAABBBBCCCCDDDD',
  userId: 700000001,
  chatId: 700000001,
  code: 'TSEL10',
  productName: 'Telkomsel 10.000',
  target: '081234567890',
  price: 10500,
  status: 'Sukses',
  providerStatus: 'Sukses',
  trxId: 'TRX-77',
  sn: '0123456789012345',
  createdAt: '2026-11-22T07:05:00.000Z',
  updatedAt: '2026-11-22T07:06:00.000Z',
  settledAt: '2026-11-22T07:06:30.000Z',
  checks: 1,
};

/** Strips tags and unescapes, to read the receipt as a user would. */
const plain = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('formatReceipt', () => {
  it('lists product, target, price, status, SN as code, ref id, trx id and WIB times', () => {
    const html = formatReceipt(inIndonesian, settled);
    expect(html).toContain('SN: <code>0123456789012345</code>');
    expect(html).toContain('Tujuan: <code>081234567890</code>');
    expect(plain(html).split('\n')).toEqual([
      '🧾 Struk transaksi',
      '',
      'Produk: Telkomsel 10.000 (TSEL10)',
      'Tujuan: 081234567890',
      'Harga: Rp 10.500',
      'Status: ✅ Sukses',
      'SN: 0123456789012345',
      'Ref ID: 01KAMZ0000AAAABBBBCCCCDDDD',
      'Trx ID: TRX-77',
      'Waktu: 22 Nov 2026 14.05 WIB',
      'Selesai: 22 Nov 2026 14.06 WIB',
    ]);
  });

  it("with a stored sell price: the reseller's own receipt shows cost → sell and the margin (earned on Sukses, expected while open, none on Gagal)", () => {
    const sold = { ...settled, sellPrice: 11500, margin: 1000 };
    const line = (tx: TransactionRecord, t = inIndonesian) => plain(formatReceipt(t, tx)).split('\n')[4];
    expect(line(sold)).toBe('Modal → jual: Rp 10.500 → Rp 11.500 (+1.000)');
    expect(line({ ...sold, status: 'Pending' })).toBe('Modal → jual: Rp 10.500 → Rp 11.500 (+1.000 bila sukses)');
    expect(line({ ...sold, status: 'Gagal' })).toBe('Modal → jual: Rp 10.500 → Rp 11.500 (tanpa margin)');
    expect(line(sold, inEnglish)).toBe('Cost → sell: Rp 10.500 → Rp 11.500 (+1.000)');
    expect(line({ ...sold, sellPrice: 10000, margin: -500 })).toBe('Modal → jual: Rp 10.500 → Rp 10.000 (⚠️ rugi -500)');
    // A group post shows neither cost nor margin: the sell price only.
    const group = plain(formatReceipt(inIndonesian, sold, { maskTarget: true, hideCost: true }));
    expect(group).toContain('Harga: Rp 11.500');
    expect(group).not.toContain('10.500');
    expect(group).not.toContain('margin');
  });

  it('masks the target for group posts', () => {
    const html = formatReceipt(inIndonesian, settled, { maskTarget: true });
    expect(html).toContain('Tujuan: 0812****7890');
    expect(html).not.toContain('081234567890');
  });

  it('names every status in both languages and keeps unknown provider statuses verbatim', () => {
    const word = (t: ReceiptTranslate, status: string, providerStatus?: string) => statusWord(t, { status, providerStatus });
    expect(['Sukses', 'Gagal', 'Pending', 'Created', 'Rejected', 'Unresolved'].map((s) => word(inIndonesian, s))).toEqual([
      'Sukses',
      'Gagal',
      'Pending',
      'Diproses',
      'Ditolak',
      'Tidak terselesaikan',
    ]);
    expect(['Sukses', 'Gagal', 'Pending', 'Created', 'Rejected', 'Unresolved'].map((s) => word(inEnglish, s))).toEqual([
      'Success',
      'Failed',
      'Pending',
      'Processing',
      'Rejected',
      'Unresolved',
    ]);
    // The provider said something the spec does not name: stored as Pending, shown verbatim.
    expect(word(inEnglish, 'Pending', 'Menunggu operator')).toBe('Menunggu operator');
    expect(word(inIndonesian, 'Sedang antri')).toBe('Sedang antri');
    expect(plain(formatReceipt(inEnglish, { ...settled, status: 'Gagal', sn: undefined }))).toContain('Status: ❌ Failed');
  });

  it('writes the hour with a colon in English (14:05), with a dot in Indonesian (14.05)', () => {
    expect(plain(formatReceipt(inEnglish, settled))).toContain('22 Nov 2026 14:05 WIB');
    expect(plain(formatReceipt(inIndonesian, settled))).toContain('22 Nov 2026 14.05 WIB');
  });

  it('says what happens next for open, refused and unresolved transactions', () => {
    const open = formatReceipt(inIndonesian, { ...settled, status: 'Pending', sn: undefined, settledAt: undefined });
    expect(plain(open)).toContain('Status: ⏳ Pending');
    expect(plain(open)).toContain(`/cek ${settled.refId}`);
    expect(open).not.toContain('SN:');
    expect(open).not.toContain('Selesai:');
    const refused = formatReceipt(inEnglish, {
      ...settled,
      status: 'Rejected',
      providerStatus: 'Produk <nonaktif>',
      sn: undefined,
      trxId: undefined,
    });
    expect(refused).toContain('Reason: Produk &lt;nonaktif&gt;');
    expect(refused).not.toContain('Trx ID');
    expect(plain(formatReceipt(inEnglish, { ...settled, status: 'Unresolved', sn: undefined }))).toContain('Status: ❔ Unresolved');
  });

  it('escapes HTML in every value taken from users or providers', () => {
    const html = formatReceipt(inIndonesian, { ...settled, productName: 'A <b>&</b>', target: '<x>', sn: 'a<b>' });
    expect(html).toContain('A &lt;b&gt;&amp;&lt;/b&gt;');
    expect(html).toContain('<code>&lt;x&gt;</code>');
    expect(html).toContain('<code>a&lt;b&gt;</code>');
  });
});

describe('addCopySnButton', () => {
  it('adds a copy_text button with the SN, and none without an SN', () => {
    const keyboard = new InlineKeyboard();
    expect(addCopySnButton(keyboard, inIndonesian, settled)).toBe(true);
    expect(keyboard.inline_keyboard.flat()).toEqual([{ text: '📋 Salin SN', copy_text: { text: '0123456789012345' } }]);
    expect(addCopySnButton(new InlineKeyboard(), inEnglish, { sn: undefined })).toBe(false);
    expect(addCopySnButton(new InlineKeyboard(), inEnglish, { sn: 'x'.repeat(300) })).toBe(false);
  });
});

describe('PLN tokens', () => {
  const pln: TransactionRecord = {
    ...settled,
    code: 'PLN20',
    productName: 'PLN Token 20.000',
    target: '12345678901',
    sn: '1234-5678-9012-3456-7890/PELANGGAN SANDBOX/R1/1300VA/13.8',
  };

  it('reads the 20-digit token of a PLN product, whatever surrounds it', () => {
    expect(plnToken(pln)).toBe('12345678901234567890');
    expect(plnToken({ ...pln, sn: '12345678901234567890' })).toBe('12345678901234567890');
    expect(plnToken({ ...pln, sn: 'TOKEN 1234 5678 9012 3456 7890 NAMA/R1/5,2 kWh' })).toBe('12345678901234567890');
    expect(groupToken('12345678901234567890')).toBe('1234 5678 9012 3456 7890');
    // Not a PLN product, or no 20-digit run: no token.
    expect(plnToken({ ...settled, sn: '12345678901234567890' })).toBeUndefined();
    expect(plnToken({ ...pln, sn: '123456789012345678901' })).toBeUndefined();
  });

  it('shows the token grouped in fours on the receipt, and the copy button copies the digits only', () => {
    const html = formatReceipt(inIndonesian, pln);
    expect(plain(html)).toContain('Token: 1234 5678 9012 3456 7890');
    expect(html).toContain('<code>1234 5678 9012 3456 7890</code>');
    expect(plain(html)).toContain('PELANGGAN SANDBOX/R1/1300VA/13.8');
    const keyboard = new InlineKeyboard();
    expect(addCopySnButton(keyboard, inIndonesian, pln)).toBe(true);
    expect(keyboard.inline_keyboard.flat()).toEqual([{ text: '📋 Salin token', copy_text: { text: '12345678901234567890' } }]);
  });
});
