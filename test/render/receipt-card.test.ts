import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { createI18n } from '../../src/bot/i18n.ts';
import type { Db } from '../../src/store/db.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import { buildCustomerReceipt } from '../../src/text/customer-receipt.ts';
import { receiptCardWidth, renderReceiptCard } from '../../src/render/receipt-card.ts';
import { isPng, pngSize } from '../helpers/qr-image.ts';
import type { ShopProfile } from '../../src/store/records/users.ts';

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

  it('draws emoji typed into the shop name and footer as the emoji, in colour, not as a box', async () => {
    const card = (shop: ShopProfile) => renderReceiptCard(buildCustomerReceipt((k, v) => i18n.t('id', k, v), pln, shop));
    const shop = (emoji: string): ShopProfile => ({ name: `Toko Budi ${emoji}`, footer: `Terima kasih ${emoji}`, target: 'masked' });
    const [plain, store, noodles, family] = await Promise.all([card(shop('')), card(shop('🏪')), card(shop('🍜')), card(shop('👨‍👩‍👧'))]);

    // A font without the emoji draws the same box for each of them: different emoji, same picture.
    expect(store.equals(noodles)).toBe(false);
    expect(family.equals(store)).toBe(false);
    // What the emoji added to the card is in colour (the box is drawn in the text's grey ink).
    for (const withEmoji of [store, noodles, family]) expect(await colouredPixelsAdded(plain, withEmoji)).toBeGreaterThan(100);

    if (process.env.KIOSBOT_SAVE_CARDS) {
      await mkdir('test-artifacts', { recursive: true });
      await writeFile('test-artifacts/receipt-card-emoji.png', store);
    }
  });
});

/** The RGBA pixels of a PNG, decoded by the canvas the card was drawn with. */
async function pixels(png: Buffer): Promise<Uint8ClampedArray> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(png);
  const ctx = createCanvas(image.width, image.height).getContext('2d');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, image.width, image.height).data;
}

/** How many pixels of `after` differ from `before` and are clearly coloured (not grey, white or black). */
async function colouredPixelsAdded(before: Buffer, after: Buffer): Promise<number> {
  expect(pngSize(after)).toEqual(pngSize(before));
  const [a, b] = await Promise.all([pixels(before), pixels(after)]);
  let count = 0;
  for (let i = 0; i < b.length; i += 4) {
    const [r, g, bl] = [b[i] ?? 0, b[i + 1] ?? 0, b[i + 2] ?? 0];
    const changed = r !== a[i] || g !== a[i + 1] || bl !== a[i + 2];
    if (changed && Math.max(r, g, bl) - Math.min(r, g, bl) > 80) count++;
  }
  return count;
}
