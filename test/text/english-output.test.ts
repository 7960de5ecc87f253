/**
 * What an English-speaking reseller reads carries no Indonesian: times as `14:05`, English month
 * names, status words and the provider's known product statuses in English. Each screen is
 * rendered as the bot renders it (in a chat, or outside one for the outbox), and the Indonesian
 * rendering of the same screen stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../src/bot/i18n.ts';
import type { Db } from '../../src/store/db.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import { formatReceipt, type ReceiptTranslate } from '../../src/text/receipt.ts';
import { buildCustomerReceipt, formatCustomerReceipt } from '../../src/text/customer-receipt.ts';
import { formatPriceDigest, type DigestChange } from '../../src/text/price-digest.ts';
import { formatWibIn } from '../../src/text/format.ts';
import { createNotices } from '../../src/notify/notices.ts';
import { renderBalanceMoves } from '../../src/bot/renderers/report-message.ts';
import { renderUserProfile } from '../../src/bot/renderers/admin.ts';
import type { TranslateFunction } from '@grammyjs/i18n';
import { expectEnglish } from '../helpers/english.ts';

const i18n = createI18n({ defaultLocale: 'id', db: {} as Db });
const inEnglish: ReceiptTranslate = (key, variables) => i18n.t('en', key, variables);
const inIndonesian: ReceiptTranslate = (key, variables) => i18n.t('id', key, variables);

/** A Sukses purchase made on 21 August 2026 at 14:05 WIB, settled a minute later. */
const sukses: TransactionRecord = {
  refId: '01JDEMO0000000000000000007',
  userId: 7,
  chatId: 7,
  code: 'TSEL10',
  productName: 'Telkomsel 10.000',
  target: '081234567890',
  price: 10_475,
  sellPrice: 12_000,
  status: 'Sukses',
  sn: 'SN77001122',
  createdAt: '2026-08-21T07:05:00.000Z',
  updatedAt: '2026-08-21T07:06:00.000Z',
  settledAt: '2026-08-21T07:06:00.000Z',
  checks: 1,
};

/** How Indonesian times were written before they followed the reader's language. */
const asBefore = new Intl.DateTimeFormat('id-ID', {
  timeZone: 'Asia/Jakarta',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

const outage: DigestChange[] = [
  { kind: 'unavailable', code: 'TSEL5', name: 'Telkomsel 5.000', price: 5_600, status: 'gangguan' },
  { kind: 'unavailable', code: 'XL10', name: 'XL 10.000', price: 10_600, status: 'kosong' },
  { kind: 'unavailable', code: 'AX5', name: 'Axis 5.000', price: 5_900, status: 'nonaktif' },
  { kind: 'unavailable', code: 'ISAT5', name: 'Indosat 5.000', price: 5_800, status: 'Sedang Gangguan Pusat' },
];

describe('English output', () => {
  it('a time in WIB: `21 Aug 2026 14:05 WIB`; in Indonesian as before, for every month', () => {
    expect(formatWibIn(inEnglish, sukses.createdAt)).toBe('21 Aug 2026 14:05 WIB');
    expect(formatWibIn(inIndonesian, sukses.createdAt)).toBe('21 Agu 2026 14.05 WIB');
    for (let month = 0; month < 12; month++) {
      const moment = new Date(Date.UTC(2026, month, 9, 16, 7));
      expect(formatWibIn(inIndonesian, moment)).toBe(`${asBefore.format(moment).replace(/,/g, '')} WIB`);
      expectEnglish(formatWibIn(inEnglish, moment));
    }
  });

  it('the receipt and the customer receipt', () => {
    const receipt = formatReceipt(inEnglish, sukses);
    expect(receipt).toContain('21 Aug 2026 14:05 WIB');
    expectEnglish(receipt);
    const customer = formatCustomerReceipt(buildCustomerReceipt(inEnglish, sukses, undefined));
    expect(customer).toContain('21 Aug 2026 14:06 WIB');
    expectEnglish(customer);
    expect(formatCustomerReceipt(buildCustomerReceipt(inIndonesian, sukses, undefined))).toContain('21 Agu 2026 14.06 WIB');
  });

  it('the settlement notice, rendered outside a chat in the owner’s language', async () => {
    const db = {
      users: { get: () => Promise.resolve({ id: 7, locale: 'en' }) },
      groups: { byOwner: () => Promise.resolve([]) },
    } as unknown as Db;
    const notices = createNotices({
      db,
      translate: (locale, key, variables) => i18n.t(locale, key, variables),
      formatReceipt,
      defaultLocale: 'id',
      adminChatId: undefined,
    });
    for (const tx of [sukses, { ...sukses, status: 'Gagal' as const, sn: undefined }]) {
      const items = await notices.settlement(tx, { notifyOwner: true });
      const texts = items.map((item) => (item.payload as { text?: string }).text ?? '');
      expect(texts.join('\n')).toContain('14:05 WIB');
      for (const text of texts) expectEnglish(text);
    }
  });

  it('the price digest names the provider’s known product statuses in English, an unknown one as it came', () => {
    const digest = formatPriceDigest(inEnglish, outage, { forGroup: false });
    expect(digest).toContain('TSEL5</code> Telkomsel 5.000 — out of service');
    expect(digest).toContain('XL10</code> XL 10.000 — out of stock');
    expect(digest).toContain('AX5</code> Axis 5.000 — inactive');
    expect(digest).toContain('Sedang Gangguan Pusat');
    expectEnglish(digest.replace('Sedang Gangguan Pusat', ''));
    // Indonesian keeps the provider's words.
    const id = formatPriceDigest(inIndonesian, outage, { forGroup: false });
    expect(id).toContain('Telkomsel 5.000 — gangguan');
    expect(id).toContain('XL 10.000 — kosong');
    expect(id).toContain('Axis 5.000 — nonaktif');
  });

  it('the balance movements of /report and the operator’s /user', () => {
    const at = (minute: number) => `2026-10-21T07:${String(minute).padStart(2, '0')}:00.000Z`;
    const moves = renderBalanceMoves(inEnglish as TranslateFunction, {
      count: 2,
      first: { account: 'main', at: at(1), balance: 100_000 },
      last: { account: 'main', at: at(9), balance: 89_525 },
      lowest: { account: 'main', at: at(9), balance: 89_525 },
      recent: [
        { account: 'main', at: at(9), balance: 89_525, change: -10_475 },
        { account: 'main', at: at(1), balance: 100_000, change: undefined },
      ],
    });
    expect(moves).toContain('21 Oct 2026 14:09 WIB');
    expectEnglish(moves);

    const profile = renderUserProfile(
      inEnglish as TranslateFunction,
      {
        user: { id: 7, firstName: 'Budi', createdAt: at(0), updatedAt: at(0), locale: 'en', active: true },
        services: [],
        recent: [sukses, { ...sukses, refId: 'R2', status: 'Gagal' }],
      } as unknown as Parameters<typeof renderUserProfile>[1],
      'id',
    );
    expect(profile).toContain('21 Oct 2026 14:00 WIB');
    expect(profile).toContain('Success');
    expect(profile).toContain('Failed');
    expectEnglish(profile);
  });
});
