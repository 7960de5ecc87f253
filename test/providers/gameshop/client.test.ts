import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGameshopClient, GameshopError, type GameshopClient } from '../../../src/providers/gameshop/client.ts';
import type { OrderInput } from '../../../src/providers/gameshop/schemas.ts';
import { gameshopDemoKeys } from '../../../tools/sandbox/gameshop.ts';
import { startSandbox, type FaultRule, type Sandbox } from '../../../tools/sandbox/server.ts';
import { anyString, stringMatching } from '../../helpers/matchers.ts';

const apiKey = gameshopDemoKeys.main;
const now = Date.parse('2025-01-31T06:00:00Z'); // 13:00 WIB

/** Mobile Legends, 86 Diamonds (Rp22.000), QRIS. */
const mlOrder: OrderInput = {
  id: '123456789',
  server: '2345',
  game: 'mobile-legends',
  product_id: 104,
  payment_method_id: 1,
  whatsapp: '081234567890',
};

let sandbox: Sandbox;
let shop: {
  url: string;
  received: Sandbox['received'];
  sim: Sandbox['gameshop'];
  inject(rule: Omit<FaultRule, 'service'>): void;
  clearFaults(): void;
  close(): Promise<void>;
};
let client: GameshopClient;

beforeAll(async () => {
  sandbox = await startSandbox({ gameshop: { now: () => now, seed: 42 } });
  shop = {
    url: sandbox.urls.gameshop,
    received: sandbox.received,
    sim: sandbox.gameshop,
    inject: (rule) => void sandbox.inject({ ...rule, service: 'gameshop' }),
    clearFaults: () => sandbox.clearFaults(),
    close: () => sandbox.close(),
  };
  client = createGameshopClient({ baseURL: shop.url, apiKey, retryDelayMs: 10 });
});
afterAll(() => shop.close());
beforeEach(() => {
  shop.received.length = 0;
  shop.clearFaults();
});

const orderRequests = () => shop.received.filter((r) => r.path === '/order');

/** Runs `action`, expecting a GameshopError, and returns it. */
async function failure(action: Promise<unknown>): Promise<GameshopError> {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GameshopError);
  return error as GameshopError;
}

describe('games()', () => {
  it('returns listed games with their category and popular games without one', async () => {
    const { games, popular } = await client.games();
    expect(games.length).toBeGreaterThanOrEqual(8);
    for (const game of games) expect(game.category).toEqual({ id: game.category_id, title: anyString() });
    expect(popular.length).toBeGreaterThan(0);
    for (const game of popular) {
      expect(game.category).toBeUndefined();
      expect(game.populer).toBe(true);
    }
    const ml = games.find((g) => g.slug === 'mobile-legends');
    expect(ml).toMatchObject({ title: 'Mobile Legends: Bang Bang', status: true, category: { title: 'MOBA' } });
    expect(games.some((g) => g.slug === 'arena-of-valor')).toBe(false);
  });

  it('sends Accept: application/json and X-API-KEY on every request', async () => {
    await client.games();
    await client.createOrder(mlOrder);
    expect(shop.received).toHaveLength(2);
    for (const request of shop.received) {
      expect(request.headers.accept).toBe('application/json');
      expect(request.headers['x-api-key']).toBe(apiKey);
    }
    expect(shop.received[1]!.headers['content-type']).toContain('application/json');
  });

  it('maps 401 to credentials', async () => {
    const stranger = createGameshopClient({ baseURL: shop.url, apiKey: 'gs-not-a-real-key' });
    const error = await failure(stranger.games());
    expect(error).toMatchObject({
      kind: 'credentials',
      httpStatus: 401,
      providerMessage: 'Unauthorized',
      endpoint: '/games',
      service: 'gameshop',
    });
  });

  it('trims a pasted key', async () => {
    const pasted = createGameshopClient({ baseURL: shop.url, apiKey: `  ${apiKey}\n` });
    await pasted.games();
    expect(shop.received[0]!.headers['x-api-key']).toBe(apiKey);
  });

  it('retries a 500 on the catalogue (safe to repeat)', async () => {
    shop.inject({ path: '/games', fault: { kind: 'status', status: 500 } });
    const { games } = await client.games();
    expect(games.length).toBeGreaterThan(0);
    expect(shop.received.filter((r) => r.path === '/games')).toHaveLength(2);
  });

  it('reports a body that is not JSON as malformed, naming the endpoint', async () => {
    shop.inject({ path: '/games', fault: { kind: 'malformed' } });
    const error = await failure(client.games());
    expect(error.kind).toBe('malformed');
    expect(error.endpoint).toBe('/games');
    expect(error.message).toContain('/games');
  });

  it('reports JSON that breaks the schema as malformed', async () => {
    shop.inject({
      path: '/games',
      fault: { kind: 'status', status: 200, body: { success: true, games: [{ id: 'x' }], populerGames: [] } },
    });
    const error = await failure(client.games());
    expect(error.kind).toBe('malformed');
    expect(String(error.cause)).toContain('games.0');
  });

  it('maps 403 to ip_blocked', async () => {
    shop.inject({ path: '/games', fault: { kind: 'status', status: 403, body: { message: 'Forbidden' } } });
    const error = await failure(client.games());
    expect(error).toMatchObject({ kind: 'ip_blocked', httpStatus: 403 });
  });
});

describe('createOrder()', () => {
  it('creates an order with a promo on QRIS and returns the full breakdown', async () => {
    const result = await client.createOrder({
      ...mlOrder,
      quantity: 2,
      promo_code: 'HEMAT10',
      whatsapp: '+62 812-3456-7890',
      email: ' budi@example.com ',
    });
    expect(result.message).toBe('Order created');
    expect(result.orderId).toMatch(/^INV-20250131-/);
    expect(result.order.order_id).toBe(result.orderId);
    expect(result.order).toMatchObject({
      payment_status: 'UNPAID',
      buy_status: 'Pending',
      quantity: 2,
      expired_at: '2025-01-31T14:00:00+07:00',
      qr_url: stringMatching(/^https:\/\/.+\.png$/),
      payment_code: stringMatching(/^000201/),
    });
    const pricing = result.order.pricing;
    expect(pricing).toMatchObject({
      quantity: 2,
      has_promo: true,
      promo_code: 'HEMAT10',
      unit_price_before_promo: 22_000,
      unit_discount: 2_200,
      unit_price_after_promo: 19_800,
      subtotal_before_promo: 44_000,
      promo_discount: 4_400,
      subtotal_after_promo: 39_600,
      payment_fee: 750 + 278, // Rp750 + 0.7% of 39.600 rounded up
    });
    expect(pricing.unique_code).toBeGreaterThanOrEqual(1);
    expect(pricing.unique_code).toBeLessThanOrEqual(999);
    expect(pricing.total_price).toBe(pricing.subtotal_after_promo + pricing.payment_fee + pricing.unique_code);
    expect(result.order.total_price).toBe(pricing.total_price);

    // What went over the wire: trimmed and normalised, quantity explicit, nothing undefined.
    expect(orderRequests().at(-1)!.body).toEqual({
      id: '123456789',
      server: '2345',
      game: 'mobile-legends',
      product_id: 104,
      payment_method_id: 1,
      email: 'budi@example.com',
      whatsapp: '081234567890',
      promo_code: 'HEMAT10',
      quantity: 2,
    });
  });

  it('sends quantity 1 when it is omitted', async () => {
    const result = await client.createOrder(mlOrder);
    expect(orderRequests()).toHaveLength(1);
    expect(orderRequests()[0]!.body).toMatchObject({ quantity: 1 });
    expect(result.order.quantity).toBe(1);
    expect(result.order.pricing).toMatchObject({ quantity: 1, has_promo: false, promo_discount: 0 });
  });

  it('returns payment details per method: virtual account code without QR, e-wallet URL', async () => {
    const va = await client.createOrder({ ...mlOrder, payment_method_id: 2 });
    expect(va.order.qr_url).toBeNull();
    expect(va.order.payment_code).toMatch(/^\d{10,}$/);
    const dana = await client.createOrder({ ...mlOrder, payment_method_id: 6 });
    expect(dana.order.qr_url).toBeNull();
    expect(dana.order.payment_url).toMatch(/^https:\/\/.+dana/);
  });

  it('validates the input before sending anything', async () => {
    const { whatsapp: _unused, ...withoutWhatsapp } = mlOrder;
    const error = await failure(
      client.createOrder({
        ...(withoutWhatsapp as OrderInput),
        quantity: 0,
        product_id: 1.5,
        game: 'Mobile Legends',
        email: 'not-an-email',
      }),
    );
    expect(error.kind).toBe('validation');
    expect(error.rejectedBeforeSending).toBe(true);
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(['email', 'game', 'product_id', 'quantity', 'whatsapp']);
    expect(error.fieldErrors?.whatsapp).toEqual(['The whatsapp field is required.']);
    expect(error.fieldErrors?.quantity).toEqual(['The quantity field must be at least 1.']);
    expect(error.message).toContain('not sent');
    expect(shop.received).toHaveLength(0);
  });

  it('refuses a number that is not an Indonesian mobile number, and a blank id, before sending', async () => {
    const error = await failure(client.createOrder({ ...mlOrder, id: '   ', whatsapp: '12345' }));
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(['id', 'whatsapp']);
    expect(shop.received).toHaveLength(0);
  });

  it("maps the shop's 422 field errors field by field", async () => {
    const ordersBefore = shop.sim.orders().length;
    const { server: _unused, ...withoutServer } = mlOrder;
    const noServer = await failure(client.createOrder(withoutServer));
    expect(noServer).toMatchObject({ kind: 'validation', httpStatus: 422, rejectedBeforeSending: false });
    expect(noServer.fieldErrors).toEqual({ server: ['The server field is required for Mobile Legends: Bang Bang.'] });
    expect(noServer.providerMessage).toBe('The server field is required for Mobile Legends: Bang Bang.');

    const tooMany = await failure(client.createOrder({ ...mlOrder, quantity: 101 }));
    expect(tooMany.fieldErrors).toEqual({ quantity: ['The quantity field must not be greater than 100.'] });
    expect(shop.sim.orders()).toHaveLength(ordersBefore);
  });

  it('maps a product of another game and an invalid promo to rejected with the reason', async () => {
    const mismatch = await failure(client.createOrder({ ...mlOrder, product_id: 201 }));
    expect(mismatch).toMatchObject({
      kind: 'rejected',
      reason: 'product_mismatch',
      httpStatus: 422,
      providerMessage: 'Produk tidak sesuai dengan game',
    });
    const promo = await failure(client.createOrder({ ...mlOrder, promo_code: 'LEBARAN2024' }));
    expect(promo).toMatchObject({ kind: 'rejected', reason: 'promo_invalid', providerMessage: 'Kode promo tidak valid' });
    expect(promo.fieldErrors).toBeUndefined();
  });

  it('maps 404 to not_found with the message', async () => {
    const product = await failure(client.createOrder({ ...mlOrder, product_id: 99_999 }));
    expect(product).toMatchObject({ kind: 'not_found', httpStatus: 404, providerMessage: 'Produk tidak ditemukan' });
    const inactive = await failure(client.createOrder({ ...mlOrder, game: 'arena-of-valor', product_id: 1001 }));
    expect(inactive).toMatchObject({ kind: 'not_found', providerMessage: 'Game tidak ditemukan' });
  });

  it('maps 500 to unknown_outcome and never retries an order', async () => {
    shop.inject({
      path: '/order',
      times: 5,
      fault: {
        kind: 'status',
        status: 500,
        body: { success: false, message: 'Gagal membuat transaksi pembayaran', error_code: 'SERVER_ERROR', errors: {} },
      },
    });
    const error = await failure(client.createOrder(mlOrder));
    expect(error).toMatchObject({ kind: 'unknown_outcome', httpStatus: 500, providerMessage: 'Gagal membuat transaksi pembayaran' });
    expect(orderRequests()).toHaveLength(1);
  });

  it('maps a timeout to unknown_outcome, once: the order may exist', async () => {
    const impatient = createGameshopClient({ baseURL: shop.url, apiKey, timeoutMs: 200, retryDelayMs: 10 });
    const before = shop.sim.orders().length;
    shop.inject({ path: '/order', fault: { kind: 'timeout' } });
    const error = await failure(impatient.createOrder(mlOrder));
    expect(error.kind).toBe('unknown_outcome');
    expect(orderRequests()).toHaveLength(1);
    expect(shop.sim.orders()).toHaveLength(before + 1); // the shop did create it
  });

  it('reports a malformed order answer, naming the endpoint', async () => {
    shop.inject({ path: '/order', fault: { kind: 'malformed', raw: '<html>Bad Gateway</html>' } });
    const notJson = await failure(client.createOrder(mlOrder));
    expect(notJson).toMatchObject({ kind: 'malformed', endpoint: '/order' });
    expect(notJson.message).toContain('/order');

    shop.inject({
      path: '/order',
      fault: {
        kind: 'status',
        status: 201,
        body: { success: true, message: 'Order created', orderId: 'INV-1', data: { order_id: 'INV-1' } },
      },
    });
    const incomplete = await failure(client.createOrder(mlOrder));
    expect(incomplete).toMatchObject({ kind: 'malformed', endpoint: '/order' });
    expect(String(incomplete.cause)).toContain('data.payment_status');
  });

  it('never lets the api key into an error text', async () => {
    const errors: GameshopError[] = [];
    shop.inject({ path: '/games', fault: { kind: 'status', status: 401, body: { message: `Key ${apiKey} is revoked` } } });
    errors.push(await failure(client.games()));
    shop.inject({
      path: '/order',
      fault: { kind: 'status', status: 422, body: { message: 'bad', errors: { id: [`${apiKey} is not an id`] } } },
    });
    errors.push(await failure(client.createOrder(mlOrder)));
    shop.inject({ path: '/order', fault: { kind: 'status', status: 500, body: { message: `crash with ${apiKey}` } } });
    errors.push(await failure(client.createOrder(mlOrder)));
    shop.inject({ path: '/order', fault: { kind: 'timeout' } });
    errors.push(await failure(createGameshopClient({ baseURL: shop.url, apiKey, timeoutMs: 200 }).createOrder(mlOrder)));
    errors.push(await failure(createGameshopClient({ baseURL: 'http://127.0.0.1:1/gameshop/api', apiKey }).createOrder(mlOrder)));
    errors.push(await failure(client.createOrder({ ...mlOrder, quantity: 0 })));
    errors.push(await failure(createGameshopClient({ baseURL: shop.url, apiKey: 'gs-wrong-key' }).games()));

    expect(errors.map((e) => e.kind)).toEqual([
      'credentials',
      'validation',
      'unknown_outcome',
      'unknown_outcome',
      'unknown_outcome',
      'validation',
      'credentials',
    ]);
    expect(errors[0]!.providerMessage).toBe('Key *** is revoked');
    for (const error of errors) {
      const texts = [
        error.message,
        String(error),
        error.stack ?? '',
        JSON.stringify(error),
        JSON.stringify(error.fieldErrors ?? {}),
        inspect(error.cause),
      ];
      for (const text of texts) {
        expect(text).not.toContain(apiKey);
        expect(text).not.toContain('gs-wrong-key');
      }
    }
  });

  it('treats a 2xx that says success:false as a refusal with its message', async () => {
    shop.inject({ path: '/order', fault: { kind: 'status', status: 200, body: { success: false, message: 'Stok produk habis' } } });
    const error = await failure(client.createOrder(mlOrder));
    expect(error).toMatchObject({ kind: 'rejected', providerMessage: 'Stok produk habis', reason: undefined });
  });
});
