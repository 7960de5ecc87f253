import { describe, expect, it } from 'vitest';
import {
  createMarketplaceSim,
  marketplaceDemoAccounts,
  marketplaceDemoPurchaseCodes,
  type MarketplaceSim,
  type MarketplaceSimItem,
  type MarketplaceSimPurchase,
} from '../../tools/sandbox/marketplace.ts';
import type { SandboxRequest, SandboxResponse } from '../../tools/sandbox/types.ts';
import { anyString, objectContaining, stringContaining, stringMatching } from '../helpers/matchers.ts';

const now = Date.parse('2025-01-31T06:00:00Z');
const { main, second, empty } = marketplaceDemoAccounts;
const codes = marketplaceDemoPurchaseCodes;

function sim(): MarketplaceSim {
  return createMarketplaceSim({ now: () => now });
}

function get(path: string, query: Record<string, string>): SandboxRequest {
  return {
    method: 'GET',
    path,
    query: new URLSearchParams(query),
    headers: {},
    contentType: '',
    rawBody: '',
    body: undefined,
    ip: '127.0.0.1',
  };
}

/** A POST with a form body (as the client sends it), a JSON body, or only a query string. */
function post(path: string, fields: Record<string, string>, as: 'form' | 'json' | 'query' = 'form'): SandboxRequest {
  const form = new URLSearchParams(fields).toString();
  return {
    method: 'POST',
    path,
    query: new URLSearchParams(as === 'query' ? fields : {}),
    headers: {},
    contentType: as === 'form' ? 'application/x-www-form-urlencoded' : as === 'json' ? 'application/json' : '',
    rawBody: as === 'form' ? form : as === 'json' ? JSON.stringify(fields) : '',
    body: as === 'query' ? undefined : { ...fields },
    ip: '127.0.0.1',
  };
}

type Answer = SandboxResponse & { body: Record<string, unknown> };
const answer = async (market: MarketplaceSim, request: SandboxRequest): Promise<Answer> => (await market.handle(request)) as Answer;

async function items(market: MarketplaceSim, apiKey: string): Promise<MarketplaceSimItem[]> {
  const { status, body } = await answer(market, get('/api/items/all', { api_key: apiKey }));
  expect(status).toBe(200);
  return body.items as MarketplaceSimItem[];
}

async function validate(market: MarketplaceSim, apiKey: string, code: string): Promise<Answer> {
  return answer(market, post('/api/purchases/validation', { api_key: apiKey, purchase_code: code }));
}

const purchaseOf = (response: Answer) => (response.body.data as { purchase: MarketplaceSimPurchase }).purchase;

describe('authentication', () => {
  it.each([
    ['GET', '/api/account/details'],
    ['GET', '/api/items/all'],
    ['GET', '/api/items/item'],
    ['POST', '/api/purchases/validation'],
  ])('%s %s answers 401 Invalid request without a key or with an unknown one', async (method, path) => {
    const market = sim();
    const queries: Array<Record<string, string>> = [{}, { api_key: '' }, { api_key: 'mk_not_a_key' }];
    for (const query of queries) {
      const request =
        method === 'GET' ? get(path, { ...query, item_id: '48201' }) : post(path, { ...query, purchase_code: codes.supported });
      expect(await answer(market, request)).toEqual({ status: 401, body: { status: 'error', msg: 'Invalid request' } });
    }
  });

  it('answers the account that owns the key', async () => {
    const market = sim();
    const { status, body } = await answer(market, get('/api/account/details', { api_key: main.apiKey }));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'success',
      data: {
        name: { firstname: 'Rizky', lastname: 'Pratama', full_name: 'Rizky Pratama' },
        username: main.username,
        currency: 'USD',
        balance: 1284.5,
        profile: { contact: { email: stringContaining('@') }, social_links: objectContaining({ github: anyString() }) },
      },
    });
    const other = await answer(market, get('/api/account/details', { api_key: second.apiKey }));
    expect(other.body).toMatchObject({ data: { username: second.username } });
    const fresh = await answer(market, get('/api/account/details', { api_key: empty.apiKey }));
    expect(fresh.body).toMatchObject({ data: { username: empty.username, balance: 0, profile: { social_links: {} } } });
  });

  it('answers 404 and 405 in the error envelope for unknown paths and wrong methods', async () => {
    const market = sim();
    expect(await answer(market, get('/api/items/none', { api_key: main.apiKey }))).toMatchObject({
      status: 404,
      body: { status: 'error' },
    });
    expect(await answer(market, post('/api/items/all', { api_key: main.apiKey }))).toMatchObject({
      status: 405,
      body: { status: 'error' },
    });
    expect(await answer(market, get('/api/purchases/validation', { api_key: main.apiKey }))).toMatchObject({ status: 405 });
  });
});

describe('items', () => {
  it('lists the main seller’s catalogue: themes, plugins, templates, audio and video', async () => {
    const list = await items(sim(), main.apiKey);
    expect(list.length).toBeGreaterThanOrEqual(12);
    expect(new Set(list.map((i) => i.id)).size).toBe(list.length);
    for (const item of list) {
      expect(item.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(item.currency).toBe('USD');
      expect(item.price.extended).toBeGreaterThan(item.price.regular);
      expect(Number.isNaN(Date.parse(item.published_at))).toBe(false);
      expect(item.demo_link).toMatch(/^https:\/\/[a-z.]+example\.(com|org|net)\//);
      expect(item.media.thumbnail).toMatch(/^https:\/\/cdn\.example\.com\//);
    }
    const video = list.filter((i) => i.media.preview_video !== undefined);
    const audio = list.filter((i) => i.media.preview_audio !== undefined);
    expect(video.length).toBeGreaterThan(0);
    expect(audio.length).toBeGreaterThan(0);
    for (const item of video) expect(item.media.preview_image).toEqual(anyString());
    for (const item of audio) {
      expect(item.media).not.toHaveProperty('preview_image');
      expect(item.media).not.toHaveProperty('preview_video');
    }
    expect(new Set(list.map((i) => i.category))).toEqual(new Set(['WordPress', 'Plugins', 'Site Templates', 'Music', 'Video Templates']));
    expect(list.some((i) => i.media.screenshots === undefined)).toBe(true);
  });

  it('answers No Items Found for a seller without items', async () => {
    expect(await answer(sim(), get('/api/items/all', { api_key: empty.apiKey }))).toEqual({
      status: 404,
      body: { status: 'error', msg: 'No Items Found' },
    });
  });

  it('finds one of the seller’s items by id and nothing else', async () => {
    const market = sim();
    const found = await answer(market, get('/api/items/item', { api_key: main.apiKey, item_id: '48212' }));
    expect(found).toMatchObject({ status: 200, body: { status: 'success', item: { id: 48212, name: 'Dynamic Slideshow Opener' } } });
    const notFound = { status: 404, body: { status: 'error', msg: 'Item Not Found' } };
    const secondsItem = (await items(market, second.apiKey))[0]!.id;
    expect(await answer(market, get('/api/items/item', { api_key: main.apiKey, item_id: String(secondsItem) }))).toEqual(notFound);
    expect(await answer(market, get('/api/items/item', { api_key: main.apiKey, item_id: '999999' }))).toEqual(notFound);
    expect(await answer(market, get('/api/items/item', { api_key: main.apiKey, item_id: 'abc' }))).toEqual(notFound);
    expect(await answer(market, get('/api/items/item', { api_key: main.apiKey }))).toEqual(notFound);
  });

  it('addItem makes an item listable and findable for its seller only', async () => {
    const market = sim();
    const added = market.addItem(empty.apiKey, { name: 'Sasirangan - Blog Theme', category: 'WordPress' });
    expect(await items(market, empty.apiKey)).toEqual([added]);
    expect(await answer(market, get('/api/items/item', { api_key: empty.apiKey, item_id: String(added.id) }))).toMatchObject({
      status: 200,
      body: { item: added },
    });
    expect((await items(market, main.apiKey)).some((i) => i.id === added.id)).toBe(false);
    expect(() => market.addItem('mk_unknown', { name: 'x' })).toThrow(/marketplaceDemoAccounts/);
  });
});

describe('purchase validation', () => {
  it('validates a code with active support that was downloaded', async () => {
    const response = await validate(sim(), main.apiKey, codes.supported);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('success');
    const purchase = purchaseOf(response);
    expect(purchase).toMatchObject({
      purchase_code: codes.supported,
      license_type: 'Regular',
      price: 59,
      currency: 'USD',
      item: { id: 48201, url: stringMatching(/^https:\/\/market\.example\.com\/item\//), media: { preview_image: anyString() } },
      downloaded: true,
    });
    expect(Date.parse(purchase.supported_until!)).toBeGreaterThan(now);
    expect(Date.parse(purchase.date)).toBeLessThan(now);
  });

  it('validates a code whose support has expired', async () => {
    const purchase = purchaseOf(await validate(sim(), main.apiKey, codes.expired));
    expect(Date.parse(purchase.supported_until!)).toBeLessThan(now);
    expect(purchase.downloaded).toBe(true);
  });

  it('omits supported_until for a purchase without support', async () => {
    const purchase = purchaseOf(await validate(sim(), main.apiKey, codes.unsupported));
    expect(purchase).not.toHaveProperty('supported_until');
    expect(purchase).toMatchObject({ license_type: 'Extended', price: 450, downloaded: false });
  });

  it('omits the preview image of an audio item', async () => {
    const purchase = purchaseOf(await validate(sim(), main.apiKey, codes.audio));
    expect(purchase.item).toMatchObject({ id: 48210, media: {} });
    expect(purchase.item.media).not.toHaveProperty('preview_image');
  });

  it('sets support dates relative to the injected clock', async () => {
    const later = Date.parse('2030-06-01T00:00:00Z');
    const market = createMarketplaceSim({ now: () => later });
    expect(Date.parse(purchaseOf(await validate(market, main.apiKey, codes.supported)).supported_until!)).toBeGreaterThan(later);
    expect(Date.parse(purchaseOf(await validate(market, main.apiKey, codes.expired)).supported_until!)).toBeLessThan(later);
  });

  it('refuses another seller’s code, an unknown code and a missing code', async () => {
    const market = sim();
    const invalid = { status: 404, body: { status: 'error', msg: 'Invalid purchase code' } };
    expect(await validate(market, main.apiKey, codes.secondSeller)).toEqual(invalid);
    expect(await validate(market, second.apiKey, codes.supported)).toEqual(invalid);
    expect(await validate(market, main.apiKey, '00000000-0000-4000-8000-000000000000')).toEqual(invalid);
    expect(await answer(market, post('/api/purchases/validation', { api_key: main.apiKey }))).toEqual(invalid);
    expect(purchaseOf(await validate(market, second.apiKey, codes.secondSeller)).item.id).toBe(51801);
  });

  it('reads api_key and purchase_code from a form body, a JSON body or the query string', async () => {
    const market = sim();
    const fields = { api_key: main.apiKey, purchase_code: codes.supported };
    for (const as of ['form', 'json', 'query'] as const) {
      expect((await answer(market, post('/api/purchases/validation', fields, as))).status).toBe(200);
    }
  });

  it('logs every validation, valid or not', async () => {
    const market = createMarketplaceSim({ now: () => now });
    await validate(market, main.apiKey, codes.supported);
    await validate(market, main.apiKey, codes.secondSeller);
    await validate(market, 'mk_nope', codes.supported);
    expect(market.validations()).toEqual([
      { at: now, username: main.username, purchaseCode: codes.supported, valid: true },
      { at: now, username: main.username, purchaseCode: codes.secondSeller, valid: false },
      { at: now, username: undefined, purchaseCode: codes.supported, valid: false },
    ]);
  });

  it('validation does not change the purchase', async () => {
    const market = sim();
    const first = purchaseOf(await validate(market, main.apiKey, codes.unsupported));
    const again = purchaseOf(await validate(market, main.apiKey, codes.unsupported));
    expect(again).toEqual(first);
  });

  it('addPurchase records a sale that then validates', async () => {
    const market = sim();
    const added = market.addPurchase(main.apiKey, {
      itemId: 48212,
      licenseType: 'Extended',
      supportedUntil: '2025-07-31T06:00:00Z',
      downloaded: true,
    });
    expect(added.purchase_code).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(added).toMatchObject({ price: 105, item: { id: 48212 }, supported_until: '2025-07-31T06:00:00Z' });
    expect(purchaseOf(await validate(market, main.apiKey, added.purchase_code))).toEqual(added);
    expect(() => market.addPurchase(main.apiKey, { itemId: 51801 })).toThrow(/addItem/);
  });
});
