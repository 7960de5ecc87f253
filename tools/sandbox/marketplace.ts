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
// Demo data
// ---------------------------------------------------------------------------------------------

/**
 * Seller accounts the simulator knows (sandbox only; these keys are not secrets).
 * - `main`: a seller with 13 items (themes, plugins, site templates, stock audio, video templates);
 * - `second`: another seller with two items and one sale (its code is invalid for `main`);
 * - `empty`: a seller who has not published anything yet (`No Items Found`).
 */
export const marketplaceDemoAccounts = {
  main: { apiKey: 'mk_demo_5c8e2f1a9b7d4036', username: 'nusantara-studio' },
  second: { apiKey: 'mk_demo_second_e41b7a0c93d2', username: 'lombok-audio' },
  empty: { apiKey: 'mk_demo_empty_07f3c9d1a2b8', username: 'baru-mulai' },
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
  supported: '8f2c1a3e-5b7d-4e91-a6c0-2d4f8b9e1c37',
  expired: '3d9e7b21-0c4a-4f68-9b15-e7a2c6d08f54',
  unsupported: 'b61f04c8-2e9a-47d3-8c5b-91a3e0d7f2c6',
  audio: 'e0a4c7f9-6d31-4b2e-a8f7-5c19b3e26d80',
  secondSeller: '7c3b9e05-a1d8-4f26-b4e3-0f6d2a8c91b7',
} as const;

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

interface ItemSeed {
  id: number;
  name: string;
  description: string;
  category: string;
  sub_category: string;
  options: string[];
  version: string;
  tags: string[];
  kind: 'regular' | 'video' | 'audio';
  screenshots: number;
  price: { regular: number; extended: number };
  published_at: string;
}

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
    options: seed.options,
    version: seed.version,
    demo_link: `https://demo.example.org/${slug(seed.name).split('-')[0]}/`,
    tags: seed.tags,
    media,
    price: seed.price,
    currency: 'USD',
    published_at: seed.published_at,
  };
}

const mainItems: ItemSeed[] = [
  {
    id: 48201,
    name: 'Kopi - Coffee Shop & Cafe WordPress Theme',
    description: 'A warm, fast theme for coffee shops and cafes: menu builder, table reservations and online ordering with WooCommerce.',
    category: 'WordPress',
    sub_category: 'Restaurants & Cafes',
    options: ['Gutenberg Ready', 'WooCommerce Ready', 'RTL Support', 'Translation Ready'],
    version: '2.4.1',
    tags: ['coffee', 'cafe', 'restaurant', 'menu', 'reservation', 'woocommerce'],
    kind: 'regular',
    screenshots: 4,
    price: { regular: 59, extended: 2950 },
    published_at: '2022-08-14T03:21:09Z',
  },
  {
    id: 48202,
    name: 'Batik - Multipurpose WooCommerce Theme',
    description: 'Twenty-four ready shop demos for fashion, electronics and handmade goods, with a visual header builder.',
    category: 'WordPress',
    sub_category: 'eCommerce',
    options: ['Elementor', 'WooCommerce Ready', 'Retina Ready', 'One-click Demo Import'],
    version: '5.12.0',
    tags: ['woocommerce', 'shop', 'fashion', 'multipurpose', 'elementor'],
    kind: 'regular',
    screenshots: 6,
    price: { regular: 69, extended: 3450 },
    published_at: '2021-02-03T09:45:30Z',
  },
  {
    id: 48203,
    name: 'Lumbung - WooCommerce Inventory Manager',
    description: 'Stock levels, purchase orders and low-stock alerts for WooCommerce stores, with barcode scanning.',
    category: 'Plugins',
    sub_category: 'WooCommerce',
    options: ['WooCommerce 8.x', 'REST API', 'Multisite'],
    version: '3.1.7',
    tags: ['inventory', 'stock', 'barcode', 'woocommerce', 'warehouse'],
    kind: 'regular',
    screenshots: 3,
    price: { regular: 39, extended: 195 },
    published_at: '2023-01-19T11:02:47Z',
  },
  {
    id: 48204,
    name: 'FormKit Pro - Drag & Drop Form Builder',
    description: 'Build contact, booking and payment forms visually; conditional logic, file uploads and Stripe payments.',
    category: 'Plugins',
    sub_category: 'Forms',
    options: ['Gutenberg Block', 'Elementor Widget', 'GDPR Ready'],
    version: '1.9.3',
    tags: ['form', 'contact form', 'builder', 'booking', 'stripe'],
    kind: 'regular',
    screenshots: 5,
    price: { regular: 29, extended: 145 },
    published_at: '2023-06-02T07:30:00Z',
  },
  {
    id: 48205,
    name: 'SEO Pilot - Schema & Sitemap Toolkit',
    description: 'Structured data, XML sitemaps and redirect manager in one lightweight plugin.',
    category: 'Plugins',
    sub_category: 'SEO',
    options: ['Multisite', 'WPML Compatible'],
    version: '4.0.2',
    tags: ['seo', 'schema', 'sitemap', 'redirects'],
    kind: 'regular',
    screenshots: 0,
    price: { regular: 24, extended: 120 },
    published_at: '2022-11-28T14:10:05Z',
  },
  {
    id: 48206,
    name: 'Rinjani - Addons for Elementor',
    description: 'Sixty widgets and a theme builder for Elementor: mega menus, sliders, pricing tables and more.',
    category: 'Plugins',
    sub_category: 'Add-ons',
    options: ['Elementor', 'Elementor Pro', 'Translation Ready'],
    version: '2.0.0',
    tags: ['elementor', 'addons', 'widgets', 'mega menu'],
    kind: 'regular',
    screenshots: 4,
    price: { regular: 26, extended: 130 },
    published_at: '2024-02-11T05:55:12Z',
  },
  {
    id: 48207,
    name: 'Lensa - Photography Portfolio Theme',
    description: 'Full-screen galleries, client proofing and print sales for photographers.',
    category: 'WordPress',
    sub_category: 'Portfolio',
    options: ['Gutenberg Ready', 'Retina Ready', 'Translation Ready'],
    version: '1.6.4',
    tags: ['photography', 'portfolio', 'gallery', 'proofing'],
    kind: 'regular',
    screenshots: 3,
    price: { regular: 49, extended: 2450 },
    published_at: '2023-09-07T02:48:33Z',
  },
  {
    id: 48208,
    name: 'Pasar - Landing Page HTML Template',
    description: 'Bootstrap 5 landing pages for apps and SaaS, with twelve sections and a dark mode.',
    category: 'Site Templates',
    sub_category: 'Marketing',
    options: ['Bootstrap 5', 'Sass', 'Dark Mode'],
    version: '1.2.0',
    tags: ['landing page', 'saas', 'app', 'bootstrap', 'html5'],
    kind: 'regular',
    screenshots: 2,
    price: { regular: 17, extended: 85 },
    published_at: '2024-04-22T08:00:00Z',
  },
  {
    id: 48209,
    name: 'Dasbor - Admin Dashboard Template',
    description: 'React and Tailwind admin dashboard: charts, data tables, kanban and invoice pages.',
    category: 'Site Templates',
    sub_category: 'Admin Templates',
    options: ['React 18', 'Tailwind CSS', 'TypeScript', 'Figma File'],
    version: '3.3.0',
    tags: ['admin', 'dashboard', 'react', 'tailwind', 'typescript'],
    kind: 'regular',
    screenshots: 6,
    price: { regular: 28, extended: 450 },
    published_at: '2022-05-16T12:34:56Z',
  },
  {
    id: 48210,
    name: 'Gamelan Dreams - Ambient Loop',
    description: 'A calm, looping ambient bed with gamelan bells and soft pads; 2:45 with a 0:60 edit.',
    category: 'Music',
    sub_category: 'Ambient',
    options: ['WAV', 'MP3', 'Loopable'],
    version: '1.0.0',
    tags: ['ambient', 'gamelan', 'calm', 'meditation', 'loop'],
    kind: 'audio',
    screenshots: 0,
    price: { regular: 19, extended: 95 },
    published_at: '2023-03-30T04:15:20Z',
  },
  {
    id: 48211,
    name: 'Upbeat Corporate Motivation',
    description: 'Bright ukulele and claps for presentations and explainer videos; full track and three cut-downs.',
    category: 'Music',
    sub_category: 'Corporate',
    options: ['WAV', 'MP3'],
    version: '1.1.0',
    tags: ['corporate', 'upbeat', 'ukulele', 'presentation'],
    kind: 'audio',
    screenshots: 0,
    price: { regular: 15, extended: 75 },
    published_at: '2023-10-05T10:20:30Z',
  },
  {
    id: 48212,
    name: 'Dynamic Slideshow Opener',
    description: 'Fast-paced opener with 24 media placeholders and 12 text layers; no plugins required.',
    category: 'Video Templates',
    sub_category: 'After Effects',
    options: ['After Effects CC 2020+', '4K', 'No Plugins'],
    version: '1.3.0',
    tags: ['opener', 'slideshow', 'promo', 'dynamic', 'after effects'],
    kind: 'video',
    screenshots: 3,
    price: { regular: 21, extended: 105 },
    published_at: '2022-12-09T16:45:00Z',
  },
  {
    id: 48213,
    name: 'Minimal Logo Reveal',
    description: 'Clean logo reveal in Premiere Pro and After Effects versions, with a sound effect included.',
    category: 'Video Templates',
    sub_category: 'Premiere Pro',
    options: ['Premiere Pro 2022+', 'After Effects CC 2020+', 'Full HD'],
    version: '2.0.1',
    tags: ['logo', 'reveal', 'intro', 'minimal'],
    kind: 'video',
    screenshots: 0,
    price: { regular: 14, extended: 70 },
    published_at: '2024-01-27T09:09:09Z',
  },
];

const secondItems: ItemSeed[] = [
  {
    id: 51801,
    name: 'Senggigi Sunset - Acoustic Guitar',
    description: 'Warm fingerstyle guitar for travel vlogs and weddings.',
    category: 'Music',
    sub_category: 'Acoustic',
    options: ['WAV', 'MP3'],
    version: '1.0.0',
    tags: ['acoustic', 'guitar', 'travel', 'wedding'],
    kind: 'audio',
    screenshots: 0,
    price: { regular: 17, extended: 85 },
    published_at: '2023-07-12T06:00:00Z',
  },
  {
    id: 51802,
    name: 'Cinematic Whoosh Pack',
    description: 'Forty whooshes, risers and hits for trailers and transitions.',
    category: 'Sound Effects',
    sub_category: 'Transitions',
    options: ['WAV', '24-bit'],
    version: '1.2.0',
    tags: ['whoosh', 'transition', 'cinematic', 'sfx'],
    kind: 'audio',
    screenshots: 0,
    price: { regular: 9, extended: 45 },
    published_at: '2024-03-03T03:03:03Z',
  },
];

interface AccountState {
  apiKey: string;
  account: MarketplaceSimAccount;
  items: MarketplaceSimItem[];
  /** Sales of this seller's items, by purchase code. */
  purchases: Map<string, MarketplaceSimPurchase>;
}

function seedAccounts(now: number): AccountState[] {
  const main: AccountState = {
    apiKey: marketplaceDemoAccounts.main.apiKey,
    account: {
      name: { firstname: 'Rizky', lastname: 'Pratama', full_name: 'Rizky Pratama' },
      username: marketplaceDemoAccounts.main.username,
      email: 'rizky.pratama@example.com',
      balance: 1284.5,
      currency: 'USD',
      profile: {
        heading: 'WordPress themes, plugins and media from Bandung',
        description: 'A small studio making fast, accessible WordPress themes and plugins, plus stock music and video templates.',
        contact: { email: 'support@nusantara-studio.example.com' },
        social_links: {
          facebook: 'https://facebook.example.com/nusantarastudio',
          twitter: 'https://x.example.com/nusantarastudio',
          instagram: 'https://instagram.example.com/nusantara.studio',
          github: 'https://github.example.com/nusantara-studio',
          dribbble: 'https://dribbble.example.com/nusantara',
        },
        media: { avatar: `${cdn}/users/nusantara-studio/avatar.png`, cover: `${cdn}/users/nusantara-studio/cover.jpg` },
      },
      registered_at: '2019-04-11T02:37:15Z',
    },
    items: mainItems.map(itemFromSeed),
    purchases: new Map(),
  };
  const second: AccountState = {
    apiKey: marketplaceDemoAccounts.second.apiKey,
    account: {
      name: { firstname: 'Baiq', lastname: 'Nuraini', full_name: 'Baiq Nuraini' },
      username: marketplaceDemoAccounts.second.username,
      email: 'baiq.nuraini@example.org',
      balance: 86.25,
      currency: 'USD',
      profile: {
        heading: 'Acoustic music and sound effects',
        description: 'Royalty-free tracks recorded in Mataram.',
        contact: { email: 'hello@lombok-audio.example.org' },
        social_links: { soundcloud: 'https://soundcloud.example.com/lombok-audio' },
        media: { avatar: `${cdn}/users/lombok-audio/avatar.png`, cover: `${cdn}/users/lombok-audio/cover.jpg` },
      },
      registered_at: '2021-09-30T13:05:42Z',
    },
    items: secondItems.map(itemFromSeed),
    purchases: new Map(),
  };
  const empty: AccountState = {
    apiKey: marketplaceDemoAccounts.empty.apiKey,
    account: {
      name: { firstname: 'Dewi', lastname: 'Lestari', full_name: 'Dewi Lestari' },
      username: marketplaceDemoAccounts.empty.username,
      email: 'dewi.lestari@example.net',
      balance: 0,
      currency: 'USD',
      profile: {
        heading: '',
        description: '',
        contact: { email: 'dewi.lestari@example.net' },
        social_links: {},
        media: { avatar: `${cdn}/users/default/avatar.png`, cover: `${cdn}/users/default/cover.jpg` },
      },
      registered_at: iso(now - 3 * day),
    },
    items: [],
    purchases: new Map(),
  };

  const sale = (state: AccountState, code: string, itemId: number, sale: Omit<MarketplaceSimPurchase, 'purchase_code' | 'item' | 'currency' | 'price'>, extended = false) => {
    const item = state.items.find((i) => i.id === itemId)!;
    state.purchases.set(code, purchaseOf(item, code, { ...sale, price: extended ? item.price.extended : item.price.regular }));
  };
  const codes = marketplaceDemoPurchaseCodes;
  sale(main, codes.supported, 48201, { license_type: 'Regular', supported_until: iso(now + 150 * day), downloaded: true, date: iso(now - 30 * day) });
  sale(main, codes.expired, 48203, { license_type: 'Regular', supported_until: iso(now - 31 * day), downloaded: true, date: iso(now - 396 * day) });
  sale(main, codes.unsupported, 48209, { license_type: 'Extended', downloaded: false, date: iso(now - 12 * day) }, true);
  sale(main, codes.audio, 48210, { license_type: 'Regular', supported_until: iso(now + 170 * day), downloaded: false, date: iso(now - 10 * day) });
  sale(second, codes.secondSeller, 51801, { license_type: 'Regular', supported_until: iso(now + 90 * day), downloaded: true, date: iso(now - 90 * day) });

  return [main, second, empty];
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
