import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { createI18n } from '../../src/bot/i18n.ts';
import type { Db } from '../../src/store/db.ts';
import type { TransactionRecord } from '../../src/store/schema.ts';
import { buildCustomerReceipt } from '../../src/text/customer-receipt.ts';
import { receiptCardWidth, renderReceiptCard } from '../../src/render/receipt-card.ts';
import { isPng, pngSize } from '../helpers/qr-image.ts';

const i18n = createI18n({ defaultLocale: 'id', db: {} as Db });

const pln: TransactionRecord = {
  refId: '01JDEMO0000000000000000002',
  userId: 1,
  chatId: 1,
  code: 'PLN20',
  productName: 'PLN Token 20.000',
  target: '12345678901',
  price: 20_350,
  sellPrice: 22_500,
  status: 'Sukses',
  sn: '12345678901234567890/BUDI SANTOSO/R1/1300VA/13.8',
  createdAt: '2026-11-22T07:05:00.000Z',
  updatedAt: '2026-11-22T07:06:00.000Z',
  settledAt: '2026-11-22T07:06:00.000Z',
  checks: 1,
};

describe('the customer receipt card (PNG)', () => {
  it('renders offline a PNG 600 px wide and a receipt-like height, longer with more lines', async () => {
    const shop = {
      name: 'Konter Budi Pulsa & PPOB',
      address: 'Jl. Melati 5, Bandung · 0812-3456-7890',
      footer: 'Terima kasih!',
      target: 'masked' as const,
    };
    const full = await renderReceiptCard(buildCustomerReceipt((k, v) => i18n.t('id', k, v), pln, shop));
    expect(isPng(full)).toBe(true);
    const size = pngSize(full);
    expect(size.width).toBe(receiptCardWidth);
    expect(size.height).toBeGreaterThan(400);
    expect(size.height).toBeLessThan(1400);

    const bare = await renderReceiptCard(buildCustomerReceipt((k, v) => i18n.t('en', k, v), { ...pln, sn: 'SN1' }, undefined));
    expect(isPng(bare)).toBe(true);
    expect(pngSize(bare).width).toBe(receiptCardWidth);
    expect(pngSize(bare).height).toBeLessThan(size.height);

    // For a look by eye: KIOSBOT_SAVE_CARDS=1 writes them to test-artifacts/ (not committed).
    if (process.env.KIOSBOT_SAVE_CARDS) {
      await mkdir('test-artifacts', { recursive: true });
      await writeFile('test-artifacts/receipt-card-id.png', full);
      await writeFile('test-artifacts/receipt-card-en.png', bare);
    }
  });

  it('wraps a very long shop name, address and footer inside the card', async () => {
    const long = 'Konter Pulsa Sejahtera Abadi Jaya Makmur Sentosa '.repeat(3);
    const png = await renderReceiptCard(
      buildCustomerReceipt((k, v) => i18n.t('id', k, v), pln, { name: long, address: long, footer: long, target: 'full' }),
    );
    expect(pngSize(png).width).toBe(receiptCardWidth);
  });
});
