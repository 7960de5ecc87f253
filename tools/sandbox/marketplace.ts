/**
 * A faithful simulation of the digital-item marketplace (document 2, `marketplace-api.md`):
 * account details, the item catalogue, one item, and purchase-code validation over in-memory
 * state. Paths are below the service root; the sandbox server strips `/marketplace`.
 *
 * Where the spec says "not shown", the choices made here are:
 * - `api_key` is read from the query string, a form body or a JSON body (body first), on every
 *   endpoint; a missing or unknown key answers HTTP 401 `{ status:'error', msg:'Invalid request' }`
 *   on every endpoint (the spec lists that text for account details; one auth check serves all).
 * - Error HTTP statuses: 401 bad key; 404 for `Item Not Found`, `No Items Found` and
 *   `Invalid purchase code`; 404 / 405 for an unknown path / wrong method (with the same
 *   `{ status:'error', msg }` envelope). Successes are 200.
 * - A missing or non-numeric `item_id` is `Item Not Found`; a missing `purchase_code` is
 *   `Invalid purchase code`. Codes match exactly (after trimming surrounding whitespace).
 * - Items and purchase codes belong to one seller account: another seller's item is
 *   `Item Not Found`, another seller's purchase code is `Invalid purchase code`.
 * - Validation reads state only: it does not mark a purchase as downloaded.
 * - `Purchase.item.media.preview_image` is omitted for audio items, as it is on the item itself.
 * - Timestamps are ISO 8601 UTC without milliseconds (`2024-03-05T08:12:44Z`). Support dates of
 *   the seeded purchases are set relative to `now()` when the simulator is created.
 * - All URLs point at example.com / example.org / example.net.
 */
import { z } from 'zod';
import { checkUnique, commentField, loadDemoData } from './data.ts';
import type { SandboxRequest, SandboxResponse, SimulatedService } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Wire shapes (the simulator's own copy: sandbox code does not import the product's schemas)
// ---------------------------------------------------------------------------------------------

export interface MarketplaceSimAccount {
  name: { firstname: string; lastname: string; full_name: string };
  username: string;
  email: string;
  balance: number;
  currency: string;
  profile: {
    heading: string;
    description: string;
    contact: { email: string };
    social_links: Record<string, string>;
    media: { avatar: string; cover: string };
  };
  registered_at: string;
}

export interface MarketplaceSimItem {
  id: number;
  name: string;
  description: string;
  category: string;
  sub_category: string;
  options: string[];
  version: string;
  demo_link: string;
  tags: string[];
  media: {
    thumbnail: string;
    preview_image?: string;
    preview_video?: string;
    preview_audio?: string;
    screenshots?: string[];
  };
  price: { regular: number; extended: number };
  currency: string;
  published_at: string;
}

export interface MarketplaceSimPurchase {
  purchase_code: string;
  license_type: string;
  price: number;
  currency: string;
  item: { id: number; name: string; url: string; media: { preview_image?: string } };
  supported_until?: string;
  downloaded: boolean;
  date: string;
}

// ---------------------------------------------------------------------------------------------
// Demo data (tools/sandbox/records/marketplace.json)
// ---------------------------------------------------------------------------------------------

const site = 'https://market.example.com';
const cdn = 'https://cdn.example.com';
const day = 24 * 60 * 60 * 1000;

/** `2024-03-05T08:12:44Z`: ISO 8601, UTC, whole seconds. */
function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The item page a purchase links to. */
function itemUrl(item: MarketplaceSimItem): string {
  return `${site}/item/${slug(item.name)}/${item.id}`;
}

const isoTimestamp = z.iso.datetime();

const accountSeedSchema = z.strictObject({
  name: z.strictObject({ firstname: z.string(), lastname: z.string(), full_name: z.string() }),
  username: z.string().min(1),
  email: z.string().min(1),
  balance: z.number().nonnegative(),
  currency: z.string().min(1),
  profile: z.strictObject({
    heading: z.string(),
    description: z.string(),
    contact: z.strictObject({ email: z.string() }),
    social_links: z.record(z.string(), z.string()),
    media: z.strictObject({ avatar: z.string(), cover: z.string() }),
  }),
  /** A fixed timestamp, or `{ daysAgo }` before the simulator's start. */
  registered_at: z.union([isoTimestamp, z.strictObject({ daysAgo: z.number().nonnegative() })]),
});

/** An item as written in the data file; media URLs are derived from `id`, `kind` and `screenshots`. */
const itemSeedSchema = z.strictObject({
  id: z.number().int().positive(),
  name: z.string().min(1),
  description: z.string(),
  category: z.string().min(1),
  sub_category: z.string(),
  options: z.array(z.string()),
  version: z.string().min(1),
  tags: z.array(z.string()),
  /** `video` adds a preview video; `audio` has a preview audio and no preview image. */
  kind: z.enum(['regular', 'video', 'audio']),
  /** How many screenshot URLs the item lists. */
  screenshots: z.number().int().nonnegative(),
  price: z.strictObject({ regular: z.number().nonnegative(), extended: z.number().nonnegative() }),
  published_at: isoTimestamp,
});
type ItemSeed = z.output<typeof itemSeedSchema>;

const sellerSchema = z.strictObject({
  apiKey: z.string().min(1),
  account: accountSeedSchema,
  items: z.array(itemSeedSchema),
});

const sellerNames = ['main', 'second', 'empty'] as const;

/** A sale as written in the data file; its dates are relative to the simulator's start. */
const purchaseSeedSchema = z.strictObject({
  code: z.string().min(1),
  seller: z.enum(sellerNames),
  itemId: z.number().int().positive(),
  /** `Extended` sells at the item's extended price, anything else at its regular price. */
  licenseType: z.string().min(1),
  /** Support ends this many days after the start (negative: it has ended); omitted: no support. */
  supportDays: z.number().optional(),
  downloaded: z.boolean(),
  soldDaysAgo: z.number().nonnegative(),
});

/** The shape of `data/marketplace.json`; the named sellers and codes are the ones tests and the README use. */
export const marketplaceDemoDataSchema = z
  .strictObject({
    ...commentField,
    sellers: z.strictObject({ main: sellerSchema, second: sellerSchema, empty: sellerSchema }),
    purchases: z.strictObject({
      supported: purchaseSeedSchema,
      expired: purchaseSeedSchema,
      unsupported: purchaseSeedSchema,
      audio: purchaseSeedSchema,
      secondSeller: purchaseSeedSchema,
    }),
  })
  .superRefine((data, context) => {
    const sellers = sellerNames.map((name) => data.sellers[name]);
    checkUnique(
      context,
      sellers.map((s) => s.apiKey),
      () => ['sellers'],
      'apiKey',
    );
    checkUnique(
      context,
      sellers.flatMap((s) => s.items.map((i) => i.id)),
      () => ['sellers'],
      'item id',
    );
    checkUnique(
      context,
      Object.values(data.purchases).map((p) => p.code),
      () => ['purchases'],
      'purchase code',
    );
    for (const [name, purchase] of Object.entries(data.purchases)) {
      if (!data.sellers[purchase.seller].items.some((item) => item.id === purchase.itemId)) {
        context.addIssue({
          code: 'custom',
          path: ['purchases', name, 'itemId'],
          message: `seller ${purchase.seller} has no item ${purchase.itemId}`,
        });
      }
    }
  });

const marketplaceDemoData = loadDemoData('marketplace.json', marketplaceDemoDataSchema);

/**
 * Seller accounts the simulator knows (sandbox only; these keys are not secrets).
 * - `main`: a seller with 13 items (themes, plugins, site templates, stock audio, video templates);
 * - `second`: another seller with two items and one sale (its code is invalid for `main`);
 * - `empty`: a seller who has not published anything yet (`No Items Found`).
 */
export const marketplaceDemoAccounts = {
  main: { apiKey: marketplaceDemoData.sellers.main.apiKey, username: marketplaceDemoData.sellers.main.account.username },
  second: { apiKey: marketplaceDemoData.sellers.second.apiKey, username: marketplaceDemoData.sellers.second.account.username },
  empty: { apiKey: marketplaceDemoData.sellers.empty.apiKey, username: marketplaceDemoData.sellers.empty.account.username },
} as const;

/**
 * Purchase codes seeded for the `main` seller (plus one of `second`):
 * - `supported`: Regular licence, support active (about five months left), downloaded;
 * - `expired`: Regular licence, support ended a month ago, downloaded;
 * - `unsupported`: Extended licence without support (`supported_until` omitted), not downloaded;
 * - `audio`: an audio item (no `preview_image`), support active, not downloaded;
 * - `secondSeller`: a valid sale of the `second` seller — invalid when validated with `main`'s key.
 */
export const marketplaceDemoPurchaseCodes = {
  supported: marketplaceDemoData.purchases.supported.code,
  expired: marketplaceDemoData.purchases.expired.code,
  unsupported: marketplaceDemoData.purchases.unsupported.code,
  audio: marketplaceDemoData.purchases.audio.code,
  secondSeller: marketplaceDemoData.purchases.secondSeller.code,
} as const;

function itemFromSeed(seed: ItemSeed): MarketplaceSimItem {
  const base = `${cdn}/items/${seed.id}`;
  const media: MarketplaceSimItem['media'] = { thumbnail: `${base}/thumbnail.jpg` };
  if (seed.kind !== 'audio') media.preview_image = `${base}/preview.jpg`;
  if (seed.kind === 'video') media.preview_video = `${base}/preview.mp4`;
  if (seed.kind === 'audio') media.preview_audio = `${base}/preview.mp3`;
  if (seed.screenshots > 0) media.screenshots = Array.from({ length: seed.screenshots }, (_, i) => `${base}/screenshots/${i + 1}.jpg`);
  return {
    id: seed.id,
    name: seed.name,
    description: seed.description,
    category: seed.category,
    sub_category: seed.sub_category,
    options: [...seed.options],
    version: seed.version,
    demo_link: `https://demo.example.org/${slug(seed.name).split('-')[0]}/`,
    tags: [...seed.tags],
    media,
    price: { ...seed.price },
    currency: 'USD',
    published_at: seed.published_at,
  };
}

interface AccountState {
  apiKey: string;
  account: MarketplaceSimAccount;
  items: MarketplaceSimItem[];
  /** Sales of this seller's items, by purchase code. */
  purchases: Map<string, MarketplaceSimPurchase>;
}

/** Fresh, mutable state for every seller of the data file, with its sales dated relative to `now`. */
function seedAccounts(now: number): AccountState[] {
  const states = new Map(
    sellerNames.map((name): [string, AccountState] => {
      const seller = marketplaceDemoData.sellers[name];
      const { registered_at, ...account } = structuredClone(seller.account);
      return [
        name,
        {
          apiKey: seller.apiKey,
          account: {
            ...account,
            registered_at: typeof registered_at === 'string' ? registered_at : iso(now - registered_at.daysAgo * day),
          },
          items: seller.items.map(itemFromSeed),
          purchases: new Map(),
        },
      ];
    }),
  );
  for (const sale of Object.values(marketplaceDemoData.purchases)) {
    const state = states.get(sale.seller)!;
    const item = state.items.find((i) => i.id === sale.itemId)!;
    state.purchases.set(
      sale.code,
      purchaseOf(item, sale.code, {
        license_type: sale.licenseType,
        price: sale.licenseType === 'Extended' ? item.price.extended : item.price.regular,
        ...(sale.supportDays === undefined ? {} : { supported_until: iso(now + sale.supportDays * day) }),
        downloaded: sale.downloaded,
        date: iso(now - sale.soldDaysAgo * day),
      }),
    );
  }
  return [...states.values()];
}

function purchaseOf(
  item: MarketplaceSimItem,
  code: string,
  sale: Omit<MarketplaceSimPurchase, 'purchase_code' | 'item' | 'currency'>,
): MarketplaceSimPurchase {
  const media: MarketplaceSimPurchase['item']['media'] = {};
  if (item.media.preview_image !== undefined) media.preview_image = item.media.preview_image;
  const purchase: MarketplaceSimPurchase = {
    purchase_code: code,
    license_type: sale.license_type,
    price: sale.price,
    currency: item.currency,
    item: { id: item.id, name: item.name, url: itemUrl(item), media },
    downloaded: sale.downloaded,
    date: sale.date,
  };
  // Omitted (not null) when the purchase has no support, as the spec says.
  if (sale.supported_until !== undefined) purchase.supported_until = sale.supported_until;
  return purchase;
}

// ---------------------------------------------------------------------------------------------
// Simulator
// ---------------------------------------------------------------------------------------------

export interface MarketplaceSimOptions {
  /** The clock (ms since epoch); seeded support dates are set relative to it. Default `Date.now`. */
  now?: () => number;
}

/** One call of POST /api/purchases/validation, as the simulator saw it. */
export interface MarketplaceValidation {
  at: number;
  /** Username of the seller whose key was sent; undefined when the key was missing or unknown. */
  username: string | undefined;
  /** The code as received (trimmed), '' when absent. */
  purchaseCode: string;
  valid: boolean;
}

/** What `addItem` needs; everything else gets a plausible default. */
export type MarketplaceNewItem = Partial<Omit<MarketplaceSimItem, 'id'>> & { name: string; id?: number };

export interface MarketplaceNewPurchase {
  itemId: number;
  /** Default: a fresh UUID. */
  code?: string;
  licenseType?: string;
  /** ISO timestamp; omit for a purchase without support. */
  supportedUntil?: string;
  downloaded?: boolean;
  /** Default: the item's regular price (extended price for an `Extended` licence). */
  price?: number;
  /** ISO timestamp; default `now()`. */
  date?: string;
}

export interface MarketplaceSim extends SimulatedService {
  /** Every validation request received (valid or not), oldest first. */
  validations(): MarketplaceValidation[];
  /** Adds an item to the seller owning `apiKey` and returns it as the API will list it. */
  addItem(apiKey: string, item: MarketplaceNewItem): MarketplaceSimItem;
  /** Records a sale of one of the seller's items and returns its purchase as validation will return it. */
  addPurchase(apiKey: string, purchase: MarketplaceNewPurchase): MarketplaceSimPurchase;
  /** Current state of a seller's account (a copy), for assertions. */
  account(apiKey: string): MarketplaceSimAccount | undefined;
}

const invalidRequest = { status: 'error', msg: 'Invalid request' } as const;

/**
 * Creates the marketplace simulator with the demo sellers, items and purchase codes seeded
 * (`marketplaceDemoAccounts`, `marketplaceDemoPurchaseCodes`). Pure request → response over its
 * own state; serve it with `startSandbox()` (under `/marketplace`).
 */
export function createMarketplaceSim(options: MarketplaceSimOptions = {}): MarketplaceSim {
  const now = options.now ?? Date.now;
  const accounts = seedAccounts(now());
  const log: MarketplaceValidation[] = [];

  const byKey = (apiKey: string | undefined): AccountState | undefined =>
    apiKey === undefined || apiKey === '' ? undefined : accounts.find((a) => a.apiKey === apiKey);
  const mustFind = (apiKey: string): AccountState => {
    const state = byKey(apiKey);
    if (!state) throw new Error(`No simulated marketplace seller has the api key "${apiKey}"; use one of marketplaceDemoAccounts.`);
    return state;
  };
  const nextItemId = (): number => Math.max(0, ...accounts.flatMap((a) => a.items.map((i) => i.id))) + 1;

  function handle(request: SandboxRequest): SandboxResponse {
    const route = routes[request.path];
    if (!route) return { status: 404, body: { status: 'error', msg: 'Endpoint not found' } };
    if (request.method.toUpperCase() !== route.method) {
      return { status: 405, body: { status: 'error', msg: 'Method not allowed' }, headers: { Allow: route.method } };
    }
    const apiKey = param(request, 'api_key');
    const state = byKey(apiKey);
    if (route === routes['/api/purchases/validation']) {
      // Log every validation attempt, including refused ones, before answering.
      const code = param(request, 'purchase_code') ?? '';
      const purchase = state?.purchases.get(code);
      log.push({ at: now(), username: state?.account.username, purchaseCode: code, valid: purchase !== undefined });
    }
    if (!state) return { status: 401, body: invalidRequest };
    return route.answer(state, request);
  }

  const routes: Record<string, { method: 'GET' | 'POST'; answer: (state: AccountState, request: SandboxRequest) => SandboxResponse }> = {
    '/api/account/details': {
      method: 'GET',
      answer: (state) => ({ status: 200, body: { status: 'success', data: structuredClone(state.account) } }),
    },
    '/api/items/all': {
      method: 'GET',
      answer: (state) =>
        state.items.length === 0
          ? { status: 404, body: { status: 'error', msg: 'No Items Found' } }
          : { status: 200, body: { status: 'success', items: structuredClone(state.items) } },
    },
    '/api/items/item': {
      method: 'GET',
      answer: (state, request) => {
        const raw = param(request, 'item_id') ?? '';
        const item = /^\d+$/.test(raw) ? state.items.find((i) => i.id === Number(raw)) : undefined;
        if (!item) return { status: 404, body: { status: 'error', msg: 'Item Not Found' } };
        return { status: 200, body: { status: 'success', item: structuredClone(item) } };
      },
    },
    '/api/purchases/validation': {
      method: 'POST',
      answer: (state, request) => {
        const purchase = state.purchases.get(param(request, 'purchase_code') ?? '');
        if (!purchase) return { status: 404, body: { status: 'error', msg: 'Invalid purchase code' } };
        return { status: 200, body: { status: 'success', data: { purchase: structuredClone(purchase) } } };
      },
    },
  };

  return {
    handle,
    validations: () => log.map((entry) => ({ ...entry })),
    addItem(apiKey, input) {
      const state = mustFind(apiKey);
      const id = input.id ?? nextItemId();
      const item: MarketplaceSimItem = {
        id,
        name: input.name,
        description: input.description ?? `${input.name}.`,
        category: input.category ?? 'WordPress',
        sub_category: input.sub_category ?? 'Miscellaneous',
        options: input.options ?? [],
        version: input.version ?? '1.0.0',
        demo_link: input.demo_link ?? `https://demo.example.org/${slug(input.name)}/`,
        tags: input.tags ?? [],
        media: input.media ?? { thumbnail: `${cdn}/items/${id}/thumbnail.jpg`, preview_image: `${cdn}/items/${id}/preview.jpg` },
        price: input.price ?? { regular: 20, extended: 100 },
        currency: input.currency ?? 'USD',
        published_at: input.published_at ?? iso(now()),
      };
      state.items.push(item);
      return structuredClone(item);
    },
    addPurchase(apiKey, input) {
      const state = mustFind(apiKey);
      const item = state.items.find((i) => i.id === input.itemId);
      if (!item) throw new Error(`Seller ${state.account.username} has no item ${input.itemId}; add it first with addItem.`);
      const code = input.code ?? crypto.randomUUID();
      const licenseType = input.licenseType ?? 'Regular';
      const purchase = purchaseOf(item, code, {
        license_type: licenseType,
        price: input.price ?? (licenseType === 'Extended' ? item.price.extended : item.price.regular),
        downloaded: input.downloaded ?? false,
        date: input.date ?? iso(now()),
        ...(input.supportedUntil === undefined ? {} : { supported_until: input.supportedUntil }),
      });
      state.purchases.set(code, purchase);
      return structuredClone(purchase);
    },
    account: (apiKey) => {
      const state = byKey(apiKey);
      return state ? structuredClone(state.account) : undefined;
    },
  };
}

/** A parameter from the body (form or JSON) or else the query string, trimmed; undefined when absent. */
function param(request: SandboxRequest, name: string): string | undefined {
  const body = request.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const value = (body as Record<string, unknown>)[name];
    if (typeof value === 'string') return value.trim();
    if (typeof value === 'number') return String(value);
  }
  const fromQuery = request.query.get(name);
  return fromQuery === null ? undefined : fromQuery.trim();
}
