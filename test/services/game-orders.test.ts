import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GameOrderService,
  orderReminderKey,
  type CreateGameOrderRequest,
  type GameOrderServiceDeps,
} from '../../src/services/game-orders.ts';
import type { CredentialService } from '../../src/services/credentials.ts';
import { createGameshopClient, GameshopError } from '../../src/providers/gameshop/client.ts';
import { providerErrorExternal, providerErrorFromJson, providerErrorToJson } from '../../src/providers/provider-error-json.ts';
import { ProviderError } from '../../src/providers/provider-error.ts';
import { gameshopDemoKeys } from '../../tools/sandbox/gameshop.ts';
import { startSandbox, type Sandbox } from '../../tools/sandbox/server.ts';
import { createLogger } from '../../src/logger.ts';
import type { GameOrderRecord } from '../../src/store/records/game-orders.ts';
import { createClock, createTempDirs, openTestStore } from '../store/helpers.ts';
import { sampleCataloguePath } from '../helpers/gameshop.ts';

/*
 * The game order service without Telegram: a real store in a temporary directory and the sandbox
 * shop on loopback (with its fault injection). User 1 has the game shop connected, user 2 not.
 */

const connected = 1;
const stranger = 2;
const start = '2025-01-31T06:00:00.000Z';

let sandbox: Sandbox;
const clock = createClock(start);
const dirs = createTempDirs();

beforeAll(async () => {
  sandbox = await startSandbox({ gameshop: { now: () => clock.now().getTime(), expiresInMs: 60 * 60_000 } });
});
afterAll(() => sandbox.close());
afterEach(() => {
  clock.set(start);
  dirs.cleanup();
});

/** Only `client` is used by the service: user 1's key goes to the sandbox shop. */
function credentialsFor(): CredentialService {
  const client = createGameshopClient({ baseURL: sandbox.urls.gameshop, apiKey: gameshopDemoKeys.main, timeoutMs: 2000 });
  return {
    client: (userId: number, service: string) => (userId === connected && service === 'gameshop' ? client : undefined),
  } as unknown as CredentialService;
}

async function setup(options: { dataDir?: string; catalogue?: string; aheadMs?: number } = {}) {
  const dataDir = options.dataDir ?? dirs.make();
  const { store, db, writes } = await openTestStore(dataDir, { now: clock.now });
  const logs: string[] = [];
  const deps: GameOrderServiceDeps = {
    db,
    credentials: credentialsFor(),
    logger: createLogger({ level: 'debug', write: (line) => logs.push(line) }),
    now: () => new Date(clock.now().getTime() + (options.aheadMs ?? 0)),
    gameshopCataloguePath: options.catalogue,
  };
  return { service: new GameOrderService(deps), store, writes, logs, dataDir };
}

const orderRequests = () => sandbox.received.filter((r) => r.service === 'gameshop' && r.path === '/order');

let confirmations = 0;
/** A Free Fire order (70 Diamonds, QRIS) for user 1 under a fresh confirmation id. */
function request(overrides: Partial<CreateGameOrderRequest> = {}): CreateGameOrderRequest {
  confirmations += 1;
  return {
    confirmationId: `confirm-${confirmations}`,
    userId: connected,
    chatId: connected,
    game: { slug: 'free-fire', title: 'Free Fire' },
    draft: {
      product: { id: 201, name: '70 Diamonds' },
      method: { id: 1, name: 'QRIS' },
      playerId: '98765432',
      whatsapp: '081234567890',
      quantity: 2,
    },
    renderReminder: (order) => ({
      type: 'send',
      text: `pay ${order.orderId}: ${order.gameTitle} — ${order.productName} × ${order.quantity}`,
    }),
    ...overrides,
  };
}

describe('game order service: create', () => {
  it('creates the order at the shop and stores it with its reminder, due ten minutes before expiry', async () => {
    const { service, store } = await setup();
    const before = orderRequests().length;
    const outcome = await service.create(request());
    if (!outcome.ok) throw new Error(`not created: ${JSON.stringify(outcome.error)}`);
    expect(orderRequests()).toHaveLength(before + 1);
    expect(orderRequests().at(-1)?.body).toMatchObject({
      game: 'free-fire',
      product_id: 201,
      payment_method_id: 1,
      id: '98765432',
      quantity: 2,
    });
    expect(outcome.order).toMatchObject({ reminder: 'queued', saved: true, quantity: 2 });
    expect(outcome.order.replayed).toBeUndefined();

    const stored = store.gameOrders.get(outcome.order.orderId);
    expect(stored).toMatchObject({
      userId: connected,
      game: 'free-fire',
      gameTitle: 'Free Fire',
      productName: '70 Diamonds',
      paymentName: 'QRIS',
      reminderQueued: true,
    });
    const reminders = store.outbox.list().filter((item) => item.dedupeKey === orderReminderKey(outcome.order.orderId));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]?.notBefore).toBe('2025-01-31T06:50:00.000Z');
    expect(reminders[0]?.payload).toEqual({ type: 'send', text: `pay ${outcome.order.orderId}: Free Fire — 70 Diamonds × 2` });
    // Plain JSON: it can sit in a conversation's state as it is.
    expect(JSON.parse(JSON.stringify(outcome))).toEqual(outcome);
  });

  it('orders once per confirmation: a double tap, and a restart after the order was stored', async () => {
    const first = await setup();
    const before = orderRequests().length;
    const confirm = request();
    const [a, b] = await Promise.all([first.service.create(confirm), first.service.create(confirm)]);
    expect(orderRequests()).toHaveLength(before + 1);
    expect(a).toEqual(b);
    if (!a.ok) throw new Error('not created');

    // A new process on the same data: the stored order answers, nothing is sent.
    await first.store.close();
    const second = await setup({ dataDir: first.dataDir });
    const again = await second.service.create(confirm);
    expect(orderRequests()).toHaveLength(before + 1);
    expect(again).toMatchObject({ ok: true, order: { orderId: a.order.orderId, replayed: true, reminder: 'none' } });
    expect((await second.service.findByConfirmation(connected, confirm.confirmationId))?.orderId).toBe(a.order.orderId);
    expect(await second.service.findByConfirmation(stranger, confirm.confirmationId)).toBeUndefined();
    expect(second.store.outbox.list()).toHaveLength(1);
    await second.store.close();
  });

  it('queues no reminder when the order expires within ten minutes', async () => {
    // Our clock runs 55 minutes ahead of the shop's: its 60-minute deadline is 5 minutes away.
    const { service, store } = await setup({ aheadMs: 55 * 60_000 });
    const outcome = await service.create(request());
    if (!outcome.ok) throw new Error('not created');
    expect(outcome.order).toMatchObject({ reminder: 'late', saved: true });
    expect(store.gameOrders.get(outcome.order.orderId)).toBeDefined();
    expect(store.outbox.list()).toHaveLength(0);
  });

  it('returns a refusal as JSON, stores nothing, and says when the outcome is unknown', async () => {
    const { service, store } = await setup();
    sandbox.inject({
      service: 'gameshop',
      path: '/order',
      fault: {
        kind: 'status',
        status: 422,
        body: { message: 'The whatsapp field is invalid.', errors: { whatsapp: ['The whatsapp format is invalid.'] } },
      },
    });
    const refused = await service.create(request());
    expect(refused).toEqual({
      ok: false,
      error: {
        service: 'gameshop',
        kind: 'validation',
        endpoint: '/order',
        httpStatus: 422,
        providerMessage: 'The whatsapp field is invalid.',
        fieldErrors: { whatsapp: ['The whatsapp format is invalid.'] },
      },
    });

    sandbox.inject({
      service: 'gameshop',
      path: '/order',
      fault: { kind: 'status', status: 500, body: { success: false, message: 'Server Error' } },
    });
    const before = orderRequests().length;
    const unknown = await service.create(request());
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
    // Never retried.
    expect(orderRequests()).toHaveLength(before + 1);
    expect(store.gameOrders.listByUser(connected)).toHaveLength(0);
    expect(store.outbox.list()).toHaveLength(0);
  });

  it('says not_connected for a user without a game shop key, without calling the shop', async () => {
    const { service } = await setup();
    const before = sandbox.received.length;
    expect(await service.create(request({ userId: stranger }))).toEqual({ ok: false, error: { kind: 'not_connected' } });
    expect(await service.games(stranger)).toEqual({ ok: false, error: { kind: 'not_connected' } });
    expect(sandbox.received).toHaveLength(before);
  });
});

describe('game order service: games, catalogue, pages', () => {
  it('lists the active games with the popular ones flagged', async () => {
    const { service } = await setup();
    const outcome = await service.games(connected);
    if (!outcome.ok) throw new Error('no games');
    expect(outcome.games.find((game) => game.slug === 'free-fire')).toEqual({
      slug: 'free-fire',
      title: 'Free Fire',
      popular: true,
      category: 'Battle Royale',
    });
    expect(outcome.games.some((game) => game.slug === 'arena-of-valor')).toBe(false);
  });

  it('reads what an order asks from the catalogue, and nothing without one', async () => {
    const withCatalogue = await setup({ catalogue: sampleCataloguePath });
    const ml = await withCatalogue.service.gameInfo({ slug: 'mobile-legends', title: 'Mobile Legends: Bang Bang' });
    expect(ml).toMatchObject({ catalogue: 'ok', catalogued: true, idLabel: 'User ID', server: { kind: 'required', label: 'Zone ID' } });
    expect(ml.products?.find((product) => product.id === 104)).toEqual({ id: 104, name: '86 Diamonds', price: 22_000 });
    const unknown = await withCatalogue.service.gameInfo({ slug: 'not-listed', title: 'Not listed' });
    expect(unknown).toMatchObject({ catalogue: 'ok', catalogued: false, server: { kind: 'unknown' } });
    expect(unknown.methods?.length).toBeGreaterThan(0);

    const without = await setup();
    expect(await without.service.gameInfo({ slug: 'free-fire', title: 'Free Fire' })).toEqual({
      slug: 'free-fire',
      title: 'Free Fire',
      catalogue: 'none',
      catalogued: false,
      server: { kind: 'unknown' },
    });
  });

  it('remembers who each game was last ordered for, per user; WhatsApp from any game when the game has none', async () => {
    const { service, store } = await setup({ catalogue: sampleCataloguePath });
    const freeFire = { slug: 'free-fire', title: 'Free Fire' };
    const mobileLegends = { slug: 'mobile-legends', title: 'Mobile Legends: Bang Bang' };
    expect((await service.gameInfo(freeFire, connected)).last).toBeUndefined();
    const first = await service.create(request());
    expect(first.ok && store.gameOrders.get(first.order.orderId)).toMatchObject({ playerId: '98765432', whatsapp: '081234567890' });
    clock.advance(60_000);
    await service.create(request({ draft: { ...request().draft, playerId: '11112222', whatsapp: '085711112222' } }));
    expect((await service.gameInfo(freeFire, connected)).last).toEqual({ playerId: '11112222', whatsapp: '085711112222' });
    expect((await service.gameInfo(mobileLegends, connected)).last).toEqual({ whatsapp: '085711112222' });
    expect((await service.gameInfo(freeFire, stranger)).last).toBeUndefined();
    expect((await service.gameInfo(freeFire)).last).toBeUndefined();
  });

  it('pages the user’s own orders newest first, and falls back to the first page past the end', async () => {
    const { service, store } = await setup();
    const record = (userId: number, n: number): GameOrderRecord => ({
      orderId: `INV-${n}`,
      userId,
      chatId: userId,
      game: 'free-fire',
      productId: 201,
      paymentMethodId: 1,
      quantity: 1,
      totalPrice: 10_000,
      paymentStatus: 'UNPAID',
      expiredAt: '2025-01-31T07:00:00.000Z',
      createdAt: new Date(Date.parse(start) + n * 60_000).toISOString(),
    });
    for (let n = 1; n <= 5; n++) await store.gameOrders.save(record(connected, n));
    await store.gameOrders.save(record(stranger, 9));
    const first = await service.ordersPage(connected, 0, 2);
    expect(first).toMatchObject({ page: 0, hasNext: true });
    expect(first.orders.map((o) => o.orderId)).toEqual(['INV-5', 'INV-4']);
    const last = await service.ordersPage(connected, 2, 2);
    expect(last.orders.map((o) => o.orderId)).toEqual(['INV-1']);
    expect(last.hasNext).toBe(false);
    expect((await service.ordersPage(connected, 7, 2)).page).toBe(0);
    expect((await service.ordersPage(stranger, 0, 10)).orders.map((o) => o.orderId)).toEqual(['INV-9']);
  });
});

describe('provider error JSON pair', () => {
  it('round-trips a game shop refusal, reason included, and a plain provider error', () => {
    const error = new GameshopError({
      kind: 'rejected',
      endpoint: '/order',
      providerMessage: 'Kode promo tidak valid',
      httpStatus: 400,
      reason: 'promo_invalid',
    });
    const json = providerErrorToJson(error);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    const back = providerErrorFromJson(json);
    expect(back).toBeInstanceOf(GameshopError);
    expect(back).toMatchObject({ kind: 'rejected', providerMessage: 'Kode promo tidak valid', httpStatus: 400, reason: 'promo_invalid' });
    const reseller = providerErrorFromJson(
      providerErrorToJson(new ProviderError('reseller', { kind: 'insufficient_balance', endpoint: '/transaction', httpStatus: 402 })),
    );
    expect(reseller).toMatchObject({ service: 'reseller', kind: 'insufficient_balance', httpStatus: 402 });
  });

  it('stores a thrown error for external() and throws the same kind again on replay', () => {
    const stored = JSON.parse(
      JSON.stringify(providerErrorExternal.beforeStoreError(new GameshopError({ kind: 'unknown_outcome', endpoint: '/order' }))),
    ) as unknown;
    expect(providerErrorExternal.afterLoadError(stored)).toMatchObject({ service: 'gameshop', kind: 'unknown_outcome' });
    const other = providerErrorExternal.afterLoadError(
      JSON.parse(JSON.stringify(providerErrorExternal.beforeStoreError(new TypeError('boom')))),
    );
    expect(other).toBeInstanceOf(Error);
    expect((other as Error).message).toBe('boom');
  });
});
