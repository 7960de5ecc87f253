import { describe, expect, it } from 'vitest';
import {
  createGameshopSim,
  gameshopDemoCatalogue,
  gameshopDemoKeys,
  type GameshopSim,
  type GameshopSimOptions,
  type GameshopSimOrderData,
} from '../../tools/sandbox/gameshop.ts';
import type { SandboxRequest, SandboxResponse } from '../../tools/sandbox/types.ts';
import { stringContaining, stringMatching } from '../helpers/matchers.ts';

const now = Date.parse('2025-01-31T06:00:00Z'); // 13:00 WIB

const mlOrder = {
  id: '123456789',
  server: '2345',
  game: 'mobile-legends',
  product_id: 104, // 86 Diamonds, Rp22.000
  payment_method_id: 1, // QRIS
  whatsapp: '081234567890',
};

function request(method: string, path: string, body?: unknown, key: string | null = gameshopDemoKeys.main): SandboxRequest {
  return {
    method,
    path,
    query: new URLSearchParams(),
    headers: { accept: 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
    contentType: body === undefined ? '' : 'application/json',
    rawBody: body === undefined ? '' : JSON.stringify(body),
    body,
    ip: '127.0.0.1',
  };
}

function sim(options: GameshopSimOptions = {}): GameshopSim {
  return createGameshopSim({ now: () => now, seed: 7, ...options });
}

async function order(shop: GameshopSim, body: unknown): Promise<SandboxResponse & { body: Record<string, unknown> }> {
  return (await shop.handle(request('POST', '/order', body))) as SandboxResponse & { body: Record<string, unknown> };
}

async function created(shop: GameshopSim, body: unknown): Promise<GameshopSimOrderData> {
  const response = await order(shop, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as GameshopSimOrderData;
}

describe('gameshop sim: auth and routes', () => {
  it('answers 401 Unauthorized without a key or with an unknown one, on every route', async () => {
    const shop = sim();
    for (const key of [null, '', 'gs-unknown']) {
      expect(await shop.handle(request('GET', '/games', undefined, key))).toEqual({ status: 401, body: { message: 'Unauthorized' } });
      expect(await shop.handle(request('POST', '/order', mlOrder, key))).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    }
    expect(shop.orders()).toHaveLength(0);
  });

  it('accepts both demo keys and records which one ordered', async () => {
    const shop = sim();
    expect((await shop.handle(request('GET', '/games', undefined, gameshopDemoKeys.second))).status).toBe(200);
    await shop.handle(request('POST', '/order', mlOrder, gameshopDemoKeys.second));
    expect(shop.orders()[0]!.apiKey).toBe(gameshopDemoKeys.second);
  });

  it('answers Laravel 404 / 405 for unknown routes and wrong methods', async () => {
    const shop = sim();
    expect((await shop.handle(request('GET', '/invoice/INV-1'))).status).toBe(404);
    expect((await shop.handle(request('GET', '/order'))).status).toBe(405);
  });
});

describe('gameshop sim: GET /games', () => {
  it('lists active games with category, popular ones without, sorted', async () => {
    const response = await sim().handle(request('GET', '/games'));
    const body = response.body as { success: boolean; games: Array<Record<string, unknown>>; populerGames: Array<Record<string, unknown>> };
    expect(body.success).toBe(true);
    expect(body.games.length).toBeGreaterThanOrEqual(8);
    expect(body.games.map((g) => g.sort)).toEqual([...body.games.map((g) => g.sort as number)].sort((a, b) => a - b));
    const titles = new Set(body.games.map((g) => (g.category as { title: string }).title));
    for (const title of ['MOBA', 'Battle Royale', 'RPG', 'Voucher']) expect(titles).toContain(title);
    expect(body.games.every((g) => g.status === true)).toBe(true);
    expect(body.games.some((g) => g.slug === 'arena-of-valor')).toBe(false);
    expect(body.populerGames.length).toBeGreaterThan(0);
    for (const game of body.populerGames) {
      expect(game).not.toHaveProperty('category');
      expect(game.populer).toBe(true);
    }
  });
});

describe('gameshop sim: POST /order validation', () => {
  it('reports missing required fields Laravel-style', async () => {
    const response = await order(sim(), {});
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      success: false,
      message: 'The id field is required. (and 4 more errors)',
      error_code: 'VALIDATION_ERROR',
      errors: {
        id: ['The id field is required.'],
        game: ['The game field is required.'],
        product_id: ['The product id field is required.'],
        payment_method_id: ['The payment method id field is required.'],
        whatsapp: ['The whatsapp field is required.'],
      },
    });
  });

  it('treats blank strings as missing and counts a single extra error in the singular', async () => {
    const response = await order(sim(), { ...mlOrder, id: '  ', whatsapp: 'call me' });
    expect(response.body.message).toBe('The id field is required. (and 1 more error)');
    expect(response.body.errors).toEqual({ id: ['The id field is required.'], whatsapp: ['The whatsapp field format is invalid.'] });
  });

  it('checks types and limits of quantity, ids and email', async () => {
    const response = await order(sim(), { ...mlOrder, product_id: 'abc', quantity: 0, email: 'nope', id: 42 });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({
      id: ['The id field must be a string.'],
      product_id: ['The product id field must be an integer.'],
      email: ['The email field must be a valid email address.'],
      quantity: ['The quantity field must be at least 1.'],
    });
    expect((await order(sim(), { ...mlOrder, quantity: 101 })).body.errors).toEqual({
      quantity: ['The quantity field must not be greater than 100.'],
    });
  });

  it('accepts 08 / 62 / +62 numbers and digit strings for integers', async () => {
    const shop = sim();
    for (const whatsapp of ['081234567890', '6281234567890', '+6281234567890']) await created(shop, { ...mlOrder, whatsapp });
    const data = await created(shop, { ...mlOrder, product_id: '104', quantity: '2' });
    expect(data.quantity).toBe(2);
  });

  it('requires a server for Mobile Legends and a known one for Genshin Impact', async () => {
    const shop = sim();
    const { server: _unused, ...noServer } = mlOrder;
    const missing = await order(shop, noServer);
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      error_code: 'VALIDATION_ERROR',
      errors: { server: ['The server field is required for Mobile Legends: Bang Bang.'] },
    });

    const genshin = { ...mlOrder, game: 'genshin-impact', product_id: 401 };
    expect((await order(shop, { ...genshin, server: 'asia' })).body.errors).toEqual({ server: ['The selected server is invalid.'] });
    await created(shop, { ...genshin, server: 'os_asia' });
    // Free Fire needs no server.
    await created(shop, { ...noServer, game: 'free-fire', product_id: 201 });
  });

  it('refuses an inactive or unknown game, product or payment method with 404 in the general envelope', async () => {
    const shop = sim();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ game: 'arena-of-valor', product_id: 1001 }, 'Game tidak ditemukan'],
      [{ game: 'Mobile Legends' }, 'Game tidak ditemukan'],
      [{ product_id: 99_999 }, 'Produk tidak ditemukan'],
      [{ payment_method_id: 99 }, 'Metode pembayaran tidak ditemukan'],
    ];
    for (const [change, message] of cases) {
      const response = await order(shop, { ...mlOrder, ...change });
      expect(response).toEqual({ status: 404, body: { success: false, message, error_code: 'NOT_FOUND', errors: {} } });
    }
    expect(shop.orders()).toHaveLength(0);
  });

  it('refuses a product of another game and an invalid promo with 422 and a message', async () => {
    const shop = sim();
    expect(await order(shop, { ...mlOrder, product_id: 201 })).toEqual({
      status: 422,
      body: { success: false, message: 'Produk tidak sesuai dengan game' },
    });
    for (const promo_code of ['NOPE', 'LEBARAN2024']) {
      expect(await order(shop, { ...mlOrder, promo_code })).toEqual({
        status: 422,
        body: { success: false, message: 'Kode promo tidak valid' },
      });
    }
    // DISKON5K needs a unit price of at least Rp20.000; 28 Diamonds cost Rp8.000.
    expect((await order(shop, { ...mlOrder, product_id: 103, promo_code: 'DISKON5K' })).status).toBe(422);
  });

  it('honours the expiry of a promo against its clock', async () => {
    const duringLebaran = createGameshopSim({ now: () => Date.parse('2024-04-10T03:00:00Z'), seed: 1 });
    const data = await created(duringLebaran, { ...mlOrder, promo_code: 'lebaran2024' });
    expect(data.pricing).toMatchObject({ has_promo: true, promo_code: 'LEBARAN2024', unit_discount: 4_400 });
  });
});

describe('gameshop sim: created orders', () => {
  it('computes a consistent breakdown for every payment method, promo and quantity', async () => {
    const shop = sim();
    for (const method of gameshopDemoCatalogue.paymentMethods) {
      for (const promo_code of [undefined, 'HEMAT10', 'DISKON5K']) {
        for (const quantity of [1, 3]) {
          for (const product_id of [104, 109]) {
            const data = await created(shop, { ...mlOrder, product_id, payment_method_id: method.id, promo_code, quantity });
            const p = data.pricing;
            const unit = product_id === 104 ? 22_000 : 145_000;
            expect(p.quantity).toBe(quantity);
            expect(data.quantity).toBe(quantity);
            expect(p.unit_price_before_promo).toBe(unit);
            expect(p.unit_price_after_promo).toBe(p.unit_price_before_promo - p.unit_discount);
            expect(p.subtotal_before_promo).toBe(unit * quantity);
            expect(p.promo_discount).toBe(p.unit_discount * quantity);
            expect(p.subtotal_after_promo).toBe(p.subtotal_before_promo - p.promo_discount);
            expect(p.payment_fee).toBe(method.fee.flat + Math.ceil((p.subtotal_after_promo * method.fee.percent) / 100));
            expect(p.unique_code).toBeGreaterThanOrEqual(1);
            expect(p.unique_code).toBeLessThanOrEqual(999);
            expect(p.total_price).toBe(p.subtotal_after_promo + p.payment_fee + p.unique_code);
            expect(data.total_price).toBe(p.total_price);
            expect(p.has_promo).toBe(promo_code !== undefined);
            expect(p.promo_code).toBe(promo_code ?? '');
            for (const value of Object.values(p)) if (typeof value === 'number') expect(Number.isInteger(value)).toBe(true);
          }
        }
      }
    }
  });

  it('applies HEMAT10 as 10% per unit capped at Rp10.000, and DISKON5K as Rp5.000 per unit', async () => {
    const shop = sim();
    expect((await created(shop, { ...mlOrder, promo_code: 'HEMAT10' })).pricing.unit_discount).toBe(2_200);
    expect((await created(shop, { ...mlOrder, product_id: 109, promo_code: 'hemat10' })).pricing.unit_discount).toBe(10_000);
    expect((await created(shop, { ...mlOrder, promo_code: 'DISKON5K', quantity: 2 })).pricing).toMatchObject({
      unit_discount: 5_000,
      promo_discount: 10_000,
    });
  });

  it('answers 201 with an unpaid, pending order that expires an hour later in WIB', async () => {
    const shop = sim();
    const response = await order(shop, mlOrder);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      success: true,
      message: 'Order created',
      orderId: stringMatching(/^INV-20250131-0001[A-Z0-9]{4}$/),
    });
    const data = response.body.data as GameshopSimOrderData;
    expect(data).toMatchObject({
      order_id: response.body.orderId,
      payment_status: 'UNPAID',
      buy_status: 'Pending',
      expired_at: '2025-01-31T14:00:00+07:00',
    });
    expect(Date.parse(data.expired_at)).toBe(now + 60 * 60 * 1000);
    const short = await created(sim({ expiresInMs: 15 * 60 * 1000 }), mlOrder);
    expect(short.expired_at).toBe('2025-01-31T13:15:00+07:00');
  });

  it('gives QRIS a QR, virtual accounts a number and e-wallets a payment URL', async () => {
    const shop = sim();
    const qris = await created(shop, { ...mlOrder, payment_method_id: 1 });
    expect(qris.qr_url).toMatch(/^https:\/\/.+\.png$/);
    expect(qris.payment_code).toMatch(/^000201.*5802ID.*6304[0-9A-F]{4}$/);
    expect(qris.payment_code).toContain(`54${String(qris.total_price).length.toString().padStart(2, '0')}${qris.total_price}`);
    const va = await created(shop, { ...mlOrder, payment_method_id: 2 });
    expect(va).toMatchObject({ qr_url: null, payment_code: stringMatching(/^70012\d{11}$/) });
    const ovo = await created(shop, { ...mlOrder, payment_method_id: 7 });
    expect(ovo).toMatchObject({ qr_url: null, payment_code: '', payment_url: stringContaining('/checkout/ovo/') });
    for (const data of [qris, va, ovo]) {
      expect(data.payment_url).toMatch(/^https:\/\//);
      expect(data.payment_reference).not.toBe('');
    }
  });

  it('is deterministic under a seed', async () => {
    const run = async (seed: number) => {
      const shop = sim({ seed });
      const first = await created(shop, mlOrder);
      const second = await created(shop, { ...mlOrder, payment_method_id: 3 });
      return [first, second];
    };
    expect(await run(11)).toEqual(await run(11));
    const [a] = await run(11);
    const [b] = await run(12);
    expect(a!.order_id === b!.order_id && a!.pricing.unique_code === b!.pricing.unique_code).toBe(false);
  });

  it('records each created order with the request body as received', async () => {
    const shop = sim();
    const body = { ...mlOrder, nickname: ' Budi ', quantity: 2 };
    const data = await created(shop, body);
    await order(shop, { ...mlOrder, product_id: 201 }); // refused: not recorded
    const orders = shop.orders();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ orderId: data.order_id, apiKey: gameshopDemoKeys.main, request: body, data, createdAt: now });
    expect(orders[1]).toBeUndefined();
  });

  it('defaults quantity to 1', async () => {
    const data = await created(sim(), mlOrder);
    expect(data).toMatchObject({ quantity: 1, pricing: { quantity: 1 } });
  });
});

describe('gameshopDemoCatalogue', () => {
  it('has unique product and payment method ids and integer prices', () => {
    const productIds = gameshopDemoCatalogue.games.flatMap((g) => g.products.map((p) => p.id));
    expect(new Set(productIds).size).toBe(productIds.length);
    const methodIds = gameshopDemoCatalogue.paymentMethods.map((m) => m.id);
    expect(new Set(methodIds).size).toBe(methodIds.length);
    for (const product of gameshopDemoCatalogue.games.flatMap((g) => g.products)) expect(Number.isInteger(product.price)).toBe(true);
    expect(new Set(gameshopDemoCatalogue.paymentMethods.map((m) => m.kind))).toEqual(new Set(['qris', 'virtual_account', 'ewallet']));
  });
});
