import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMarketplaceClient, MarketplaceError, type MarketplaceClient } from '../../../src/providers/marketplace/client.ts';
import { supportStateOf } from '../../../src/providers/marketplace/schemas.ts';
import { marketplaceDemoAccounts, marketplaceDemoPurchaseCodes } from '../../../tools/sandbox/marketplace.ts';
import { startSandbox, type FaultRule, type Sandbox } from '../../../tools/sandbox/server.ts';
import { anyString, stringContaining, stringMatching } from '../../helpers/matchers.ts';
import { createLogger } from '../../../src/logger.ts';

const now = Date.parse('2025-01-31T06:00:00Z');
const { main, empty } = marketplaceDemoAccounts;
const codes = marketplaceDemoPurchaseCodes;

let sandbox: Sandbox;
let client: MarketplaceClient;

/** The marketplace's view of the sandbox: its URL, simulator, requests received, and fault injection. */
const market = {
  get url() {
    return sandbox.urls.marketplace;
  },
  get sim() {
    return sandbox.marketplace;
  },
  get received() {
    return sandbox.received.filter((request) => request.service === 'marketplace');
  },
  inject: (rule: Omit<FaultRule, 'service'>) => sandbox.inject({ ...rule, service: 'marketplace' }),
};

beforeAll(async () => {
  sandbox = await startSandbox({ marketplace: { now: () => now } });
  client = createMarketplaceClient({ baseURL: market.url, apiKey: main.apiKey, retryDelayMs: 10 });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.received.length = 0;
  sandbox.clearFaults();
});

/** Runs `action`, expecting a MarketplaceError, and returns it. */
async function failure(action: Promise<unknown>): Promise<MarketplaceError> {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketplaceError);
  return error as MarketplaceError;
}

/** Every way the error could reach a log or a chat: none may contain `secret`. */
function expectNoSecret(error: MarketplaceError, secret: string): void {
  const texts = [
    String(error),
    error.message,
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    String(error.stack),
    String(error.cause),
  ];
  for (const form of [secret, encodeURIComponent(secret)]) {
    for (const text of texts) expect(text).not.toContain(form);
  }
}

describe('accountDetails()', () => {
  it('returns the seller’s account', async () => {
    const account = await client.accountDetails();
    expect(account).toMatchObject({
      name: { full_name: 'Rizky Pratama' },
      username: main.username,
      balance: 1284.5,
      currency: 'USD',
      profile: { social_links: { github: stringMatching(/^https:/) }, media: { avatar: anyString() } },
    });
    expect(Number.isNaN(Date.parse(account.registered_at))).toBe(false);
  });

  it('reads an account with an empty profile and no social links', async () => {
    const fresh = createMarketplaceClient({ baseURL: market.url, apiKey: empty.apiKey });
    expect(await fresh.accountDetails()).toMatchObject({ username: empty.username, balance: 0, profile: { social_links: {} } });
  });

  it('sends the trimmed api_key in the query string of a GET, and no body', async () => {
    const pasted = createMarketplaceClient({ baseURL: market.url, apiKey: `  ${main.apiKey}\n` });
    await pasted.accountDetails();
    const [request] = market.received;
    expect(request).toMatchObject({ method: 'GET', path: '/api/account/details', rawBody: '' });
    expect(request!.query.get('api_key')).toBe(main.apiKey);
    expect(request!.headers.accept).toBe('application/json');
  });
});

describe('items() and item()', () => {
  it('lists the seller’s items, optional media absent where the item has none', async () => {
    const items = await client.items();
    expect(items.length).toBeGreaterThanOrEqual(12);
    const video = items.find((i) => i.media.preview_video !== undefined)!;
    expect(video.media.preview_image).toEqual(anyString());
    const audio = items.find((i) => i.media.preview_audio !== undefined)!;
    expect(audio.media.preview_image).toBeUndefined();
    expect(audio.media.screenshots).toEqual([]);
    expect(items.find((i) => i.id === 48201)).toMatchObject({ version: '2.4.1', price: { regular: 59, extended: 2950 }, currency: 'USD' });
  });

  it('returns [] for a seller without items (No Items Found is not an error)', async () => {
    const fresh = createMarketplaceClient({ baseURL: market.url, apiKey: empty.apiKey });
    expect(await fresh.items()).toEqual([]);
  });

  it('fetches one item, sending api_key and item_id in the query', async () => {
    const item = await client.item(48212);
    expect(item).toMatchObject({ id: 48212, category: 'Video Templates', media: { preview_video: anyString() } });
    const [request] = market.received;
    expect(Object.fromEntries(request!.query)).toEqual({ api_key: main.apiKey, item_id: '48212' });
  });

  it('maps Item Not Found (also another seller’s item) to not_found', async () => {
    for (const id of [999999, 51801]) {
      const error = await failure(client.item(id));
      expect(error).toMatchObject({
        kind: 'not_found',
        providerMessage: 'Item Not Found',
        endpoint: '/api/items/item',
        service: 'marketplace',
      });
    }
  });

  it('refuses an id that cannot exist without sending anything', async () => {
    for (const id of [0, -3, 1.5, Number.NaN]) {
      const error = await failure(client.item(id));
      expect(error).toMatchObject({ kind: 'validation', rejectedBeforeSending: true, fieldErrors: { item_id: [anyString()] } });
    }
    expect(market.received).toHaveLength(0);
  });
});

describe('validatePurchase()', () => {
  it('returns a purchase with active support', async () => {
    const purchase = await client.validatePurchase(codes.supported);
    expect(purchase).toMatchObject({
      purchase_code: codes.supported,
      license_type: 'Regular',
      price: 59,
      currency: 'USD',
      item: { id: 48201, name: stringContaining('Kopi'), url: anyString(), media: { preview_image: anyString() } },
      downloaded: true,
    });
    expect(supportStateOf(purchase, now)).toBe('active');
  });

  it('returns expired support, absent support and an audio item without preview image', async () => {
    const expired = await client.validatePurchase(codes.expired);
    expect(supportStateOf(expired, now)).toBe('expired');
    const unsupported = await client.validatePurchase(codes.unsupported);
    expect(unsupported).not.toHaveProperty('supported_until');
    expect(supportStateOf(unsupported, now)).toBe('none');
    expect(unsupported).toMatchObject({ license_type: 'Extended', downloaded: false });
    const audio = await client.validatePurchase(codes.audio);
    expect(audio.item.media.preview_image).toBeUndefined();
  });

  it('POSTs api_key and the trimmed purchase_code as a form body, not in the query', async () => {
    await client.validatePurchase(`  ${codes.supported}\n`);
    const [request] = market.received;
    expect(request).toMatchObject({ method: 'POST', path: '/api/purchases/validation', contentType: 'application/x-www-form-urlencoded' });
    expect(request!.body).toEqual({ api_key: main.apiKey, purchase_code: codes.supported });
    expect(request!.query.has('api_key')).toBe(false);
    expect(market.sim.validations().at(-1)).toMatchObject({ purchaseCode: codes.supported, valid: true });
  });

  it('maps Invalid purchase code (unknown or another seller’s code) to not_found, keeping the message', async () => {
    for (const code of ['00000000-0000-4000-8000-000000000000', codes.secondSeller]) {
      const error = await failure(client.validatePurchase(code));
      expect(error).toMatchObject({
        kind: 'not_found',
        providerMessage: 'Invalid purchase code',
        endpoint: '/api/purchases/validation',
        httpStatus: 404,
      });
    }
  });

  it('refuses an empty code without sending anything', async () => {
    const error = await failure(client.validatePurchase('   '));
    expect(error).toMatchObject({ kind: 'validation', rejectedBeforeSending: true });
    expect(error.message).toContain('purchase code is empty');
    expect(market.received).toHaveLength(0);
  });
});

describe('errors', () => {
  it('maps an unknown key to credentials on every endpoint', async () => {
    const stranger = createMarketplaceClient({ baseURL: market.url, apiKey: 'mk_not_a_real_key' });
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['/api/account/details', () => stranger.accountDetails()],
      ['/api/items/all', () => stranger.items()],
      ['/api/items/item', () => stranger.item(48201)],
      ['/api/purchases/validation', () => stranger.validatePurchase(codes.supported)],
    ];
    for (const [endpoint, call] of calls) {
      const error = await failure(call());
      expect(error).toMatchObject({ kind: 'credentials', endpoint, providerMessage: 'Invalid request', httpStatus: 401 });
    }
  });

  it('reads status:"error" as a failure even with HTTP 200', async () => {
    market.inject({
      path: '/api/account/details',
      fault: { kind: 'status', status: 200, body: { status: 'error', msg: 'Invalid request' } },
    });
    expect(await failure(client.accountDetails())).toMatchObject({ kind: 'credentials', httpStatus: 200 });
    market.inject({ path: '/api/items/item', fault: { kind: 'status', status: 200, body: { status: 'error', msg: 'Item Not Found' } } });
    expect(await failure(client.item(48201))).toMatchObject({ kind: 'not_found', providerMessage: 'Item Not Found' });
    market.inject({ path: '/api/items/all', fault: { kind: 'status', status: 200, body: { status: 'error', msg: 'No Items Found' } } });
    expect(await client.items()).toEqual([]);
    market.inject({
      path: '/api/purchases/validation',
      fault: { kind: 'status', status: 200, body: { status: 'error', msg: 'Akun sedang ditinjau' } },
    });
    const other = await failure(client.validatePurchase(codes.supported));
    expect(other).toMatchObject({ kind: 'rejected', providerMessage: 'Akun sedang ditinjau' });
    expect(other.message).toContain('Akun sedang ditinjau');
  });

  it('maps 403 to ip_blocked when the message is about the IP, else to credentials', async () => {
    market.inject({ fault: { kind: 'status', status: 403, body: { status: 'error', msg: 'Your IP address is not whitelisted' } } });
    expect(await failure(client.accountDetails())).toMatchObject({ kind: 'ip_blocked', httpStatus: 403 });
    market.inject({ fault: { kind: 'status', status: 403, body: { status: 'error', msg: 'API access disabled' } } });
    expect(await failure(client.accountDetails())).toMatchObject({ kind: 'credentials', providerMessage: 'API access disabled' });
  });

  it('reports a body that is not JSON as malformed, naming the endpoint', async () => {
    market.inject({ path: '/api/account/details', fault: { kind: 'malformed' } });
    const error = await failure(client.accountDetails());
    expect(error).toMatchObject({ kind: 'malformed', endpoint: '/api/account/details' });
    expect(error.message).toContain('/api/account/details');
    market.inject({ path: '/api/items/item', fault: { kind: 'malformed', raw: '<html><body>Not Found</body></html>' } });
    expect(await failure(client.item(48201))).toMatchObject({ kind: 'malformed', endpoint: '/api/items/item' });
  });

  it('reports a body that breaks the schema as malformed, naming the endpoint and the field', async () => {
    market.inject({
      path: '/api/items/all',
      fault: { kind: 'status', status: 200, body: { status: 'success', items: [{ id: 'abc', name: 'x' }] } },
    });
    const error = await failure(client.items());
    expect(error).toMatchObject({ kind: 'malformed', endpoint: '/api/items/all' });
    expect(error.message).toContain('/api/items/all');
    expect(String(error.cause)).toContain('items.0.');
    market.inject({ path: '/api/purchases/validation', fault: { kind: 'status', status: 200, body: { status: 'success', data: {} } } });
    expect(await failure(client.validatePurchase(codes.supported))).toMatchObject({
      kind: 'malformed',
      endpoint: '/api/purchases/validation',
    });
    market.inject({ path: '/api/account/details', fault: { kind: 'status', status: 200, body: { ok: true } } });
    expect(await failure(client.accountDetails())).toMatchObject({ kind: 'malformed' });
  });

  it('retries a GET after 5xx and succeeds', async () => {
    market.inject({
      path: '/api/items/all',
      times: 2,
      fault: { kind: 'status', status: 503, body: { status: 'error', msg: 'Maintenance' } },
    });
    expect((await client.items()).length).toBeGreaterThanOrEqual(12);
    expect(market.received.filter((r) => r.path === '/api/items/all')).toHaveLength(3);
  });

  it('gives up after three 5xx answers with unknown_outcome', async () => {
    market.inject({
      path: '/api/purchases/validation',
      times: Infinity,
      fault: { kind: 'status', status: 500, body: { status: 'error', msg: 'Server Error' } },
    });
    const error = await failure(client.validatePurchase(codes.supported));
    expect(error).toMatchObject({ kind: 'unknown_outcome', httpStatus: 500, endpoint: '/api/purchases/validation' });
    expect(market.received).toHaveLength(3);
  });

  it('maps a timeout to unknown_outcome, after retrying', async () => {
    const impatient = createMarketplaceClient({ baseURL: market.url, apiKey: main.apiKey, timeoutMs: 100, retryDelayMs: 10 });
    market.inject({ path: '/api/account/details', times: Infinity, fault: { kind: 'timeout' } });
    const error = await failure(impatient.accountDetails());
    expect(error).toMatchObject({ kind: 'unknown_outcome', endpoint: '/api/account/details' });
    expect(market.received).toHaveLength(3);
    expectNoSecret(error, main.apiKey);
  });

  it('maps a reset connection to unknown_outcome', async () => {
    const once = createMarketplaceClient({ baseURL: market.url, apiKey: main.apiKey, retries: 0 });
    market.inject({ path: '/api/items/item', times: Infinity, fault: { kind: 'reset' } });
    expect(await failure(once.item(48201))).toMatchObject({ kind: 'unknown_outcome', endpoint: '/api/items/item' });
  });
});

describe('the api key never appears in an error', () => {
  // Characters that URL-encode differently in a query string and a form body.
  const secret = 'mk_live_S3cr3t+k3y/with=odd chars';

  it('not on a timeout (GET with the key in the URL)', async () => {
    const leaky = createMarketplaceClient({ baseURL: market.url, apiKey: secret, timeoutMs: 100, retries: 0 });
    market.inject({ times: Infinity, fault: { kind: 'timeout' } });
    expectNoSecret(await failure(leaky.items()), secret);
    expectNoSecret(await failure(leaky.validatePurchase(codes.supported)), secret);
  });

  it('not on a network error', async () => {
    const port = await closedPort();
    const unreachable = createMarketplaceClient({ baseURL: `http://127.0.0.1:${port}/marketplace`, apiKey: secret, retries: 0 });
    const error = await failure(unreachable.item(48201));
    expect(error.kind).toBe('unknown_outcome');
    expectNoSecret(error, secret);
  });

  it("a network failure's log line names its code and error names (ECONNRESET, TimeoutError), never the key", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', write: (line) => void lines.push(line) });
    // A provider that resets the connection as the request arrives.
    const resetting = createServer((socket) => socket.on('data', () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const at = (server: typeof resetting) => `http://127.0.0.1:${(server.address() as { port: number }).port}/marketplace`;
    try {
      const reset = await failure(createMarketplaceClient({ baseURL: at(resetting), apiKey: secret, retries: 0 }).items());
      const timedOut = await failure(createMarketplaceClient({ baseURL: at(hanging), apiKey: secret, retries: 0, timeoutMs: 100 }).items());
      logger.warn('provider call failed', { error: reset });
      logger.warn('provider call failed', { error: timedOut });
    } finally {
      resetting.close();
      hanging.close();
    }
    expect(lines[0]).toContain('ECONNRESET');
    expect(lines[1]).toContain('TimeoutError');
    for (const line of lines) for (const form of [secret, encodeURIComponent(secret)]) expect(line).not.toContain(form);
  });

  it('not when the provider echoes it back', async () => {
    const echoing = createMarketplaceClient({ baseURL: market.url, apiKey: secret, retries: 0 });
    market.inject({ fault: { kind: 'status', status: 400, body: { status: 'error', msg: `Unknown api_key ${secret}` } } });
    const rejected = await failure(echoing.accountDetails());
    expect(rejected.providerMessage).toBe('Unknown api_key ***');
    expectNoSecret(rejected, secret);
    market.inject({ fault: { kind: 'status', status: 502, body: { message: `bad gateway for ?api_key=${encodeURIComponent(secret)}` } } });
    const upstream = await failure(echoing.accountDetails());
    expect(upstream).toMatchObject({ kind: 'unknown_outcome', httpStatus: 502, providerMessage: 'bad gateway for ?api_key=***' });
    expectNoSecret(upstream, secret);
  });
});

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
