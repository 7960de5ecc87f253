/**
 * A faithful simulation of the reseller top-up API (document 1, `reseller-topup-api.md`):
 * POST /cek-saldo, /price-list and /transaction over in-memory state. Paths are below the
 * `/api/v1` prefix; the sandbox server strips `/reseller/api/v1`.
 *
 * Where the spec says "not shown", the choices made here are:
 * - only POST with `Content-Type: application/json` is served: another method is a 405, another
 *   content type, a body that is not a JSON object or a missing/blank/non-string field is a 400;
 * - error bodies follow the spec's rule: `{ error }` for /cek-saldo and /price-list,
 *   `{ success: false, message }` for /transaction (also for 400, 403 and 404);
 * - the sign must be the lowercase hex MD5 of the concatenation; an unknown `api_id` is answered
 *   like a bad sign (401 'Signature tidak valid'), so account ids cannot be probed;
 * - an account flagged `ipBlocked` gets 403 'IP Blocked' on every request (checked after the
 *   api_id lookup, before the sign);
 * - ref_ids are unique per account; a known ref_id with the same code and target is a status check
 *   (no debit), with a different code or target a 400;
 * - unknown product code: 404 'Produk tidak ditemukan'; a product whose status is not `active`:
 *   400 saying it is unavailable; a balance below the price: 402 'Saldo tidak mencukupi'; none of
 *   these records the ref_id, so the same ref_id may be used again once the cause is fixed;
 * - a create debits the price and answers Pending (`trx_id` set, `sn` ''). The transaction settles
 *   later (see `ResellerSimOptions`): Sukses with an SN (a 20-digit number; a token and meter
 *   details for PLN), or Gagal with the price credited back;
 * - a status check answers `{ status, trx_id, sn }` (`minimalStatusCheck` for the bare `{ status }`).
 */
import { createHash } from 'node:crypto';
import type { SandboxRequest, SandboxResponse, SimulatedService } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Demo data
// ---------------------------------------------------------------------------------------------

export interface ResellerSimAccount {
  apiId: string;
  apiKey: string;
  /** Starting balance in rupiah. */
  balance: number;
  /** Every request of this account is answered 403 'IP Blocked'. */
  ipBlocked?: boolean;
}

/** Accounts the simulator knows by default (sandbox only; these keys are not secrets). */
export const resellerDemoAccounts = {
  /** The everyday demo account: Rp 1.000.000. */
  main: { apiId: 'DEMO-RESELLER', apiKey: 'demo-key-7f3a91c2e8b54d06', balance: 1_000_000 },
  /** A second ordinary account (another user of the same bot): Rp 250.000. */
  second: { apiId: 'DEMO-RESELLER-2', apiKey: 'demo-key-second-4b8e2d71a6c3', balance: 250_000 },
  /** Almost empty: Rp 5.000, enough for a small game top-up (FF5, ML5) but for no pulsa (TSEL5 costs more). */
  poor: { apiId: 'DEMO-SALDO-TIPIS', apiKey: 'demo-key-poor-9c1d5e3f7a20', balance: 5_000 },
  /** Its whitelist does not contain this server's IP: every request gets 403. */
  blocked: { apiId: 'DEMO-IP-BLOCKED', apiKey: 'demo-key-blocked-2e6f0a8c4d19', balance: 500_000, ipBlocked: true },
} as const satisfies Record<string, ResellerSimAccount>;

export type ResellerProductCategory = 'pulsa' | 'data' | 'pln' | 'game' | 'ewallet';

/** A product of the simulated catalogue. Only code, name, price and status go on the wire. */
export interface ResellerSimProduct {
  code: string;
  name: string;
  /** Integer rupiah. */
  price: number;
  /** `active`, or a reason it cannot be bought (`gangguan`, `kosong`, `nonaktif`). */
  status: string;
  brand: string;
  category: ResellerProductCategory;
  /** Face value in rupiah for pulsa, PLN and e-wallet products. */
  nominal?: number;
}

/** Rounds up to a multiple of 25 rupiah, as price lists usually are. */
const round25 = (value: number) => Math.ceil(value / 25) * 25;

function pulsa(brand: string, prefix: string, thousands: number[], rate: number, fee: number): ResellerSimProduct[] {
  return thousands.map((k) => ({
    code: `${prefix}${k}`,
    name: `${brand} ${(k * 1000).toLocaleString('id-ID')}`,
    price: round25(k * 1000 * rate + fee),
    status: 'active',
    brand,
    category: 'pulsa',
    nominal: k * 1000,
  }));
}

function data(brand: string, prefix: string, packages: Array<[quota: string, days: number, price: number]>): ResellerSimProduct[] {
  return packages.map(([quota, days, price]) => ({
    code: `${prefix}D${quota}`,
    name: `${brand} Data ${quota} ${days} Hari`,
    price,
    status: 'active',
    brand,
    category: 'data',
  }));
}

function game(brand: string, prefix: string, unit: string, items: Array<[amount: number | string, price: number, name?: string]>): ResellerSimProduct[] {
  return items.map(([amount, price, name]) => ({
    code: `${prefix}${amount}`,
    name: name ?? `${brand} ${amount} ${unit}`,
    price,
    status: 'active',
    brand,
    category: 'game',
  }));
}

function wallet(brand: string, prefix: string, thousands: number[], fee: number): ResellerSimProduct[] {
  return thousands.map((k) => ({
    code: `${prefix}${k}`,
    name: `${brand} ${(k * 1000).toLocaleString('id-ID')}`,
    price: k * 1000 + fee,
    status: 'active',
    brand,
    category: 'ewallet',
    nominal: k * 1000,
  }));
}

/** Products that cannot be bought right now, and why (their `status`). */
const unavailableProducts: Record<string, string> = {
  TSEL150: 'gangguan',
  ISAT150: 'kosong',
  AXIS200: 'nonaktif',
  TRID12GB: 'gangguan',
  SMART150: 'kosong',
  PLN1000: 'gangguan',
  FF1450: 'kosong',
  GI2240: 'nonaktif',
  OVO100: 'gangguan',
};

/** The simulated price list (123 products, 9 of them unavailable), in the order /price-list answers it. */
export const resellerDemoProducts: readonly ResellerSimProduct[] = [
  ...pulsa('Telkomsel', 'TSEL', [5, 10, 15, 20, 25, 50, 75, 100, 150, 200], 1, 450),
  ...pulsa('Indosat', 'ISAT', [5, 10, 15, 20, 25, 50, 100, 150], 0.985, 350),
  ...pulsa('XL', 'XL', [5, 10, 15, 25, 50, 100, 200], 0.99, 300),
  ...pulsa('Axis', 'AXIS', [5, 10, 15, 25, 50, 100, 200], 0.99, 300),
  ...pulsa('Tri', 'TRI', [5, 10, 20, 25, 50, 100], 0.98, 250),
  ...pulsa('Smartfren', 'SMART', [5, 10, 20, 25, 50, 100, 150], 0.975, 300),
  ...data('Telkomsel', 'TSEL', [['1GB', 7, 13_500], ['3GB', 30, 32_000], ['5GB', 30, 47_500], ['10GB', 30, 78_000], ['25GB', 30, 125_000]]),
  ...data('Indosat', 'ISAT', [['2GB', 7, 12_750], ['5GB', 30, 27_500], ['10GB', 30, 45_000], ['20GB', 30, 72_500]]),
  ...data('XL', 'XL', [['1GB', 7, 10_500], ['3GB', 30, 22_000], ['5GB', 30, 30_500], ['10GB', 30, 52_000], ['15GB', 30, 68_000]]),
  ...data('Axis', 'AXIS', [['2GB', 7, 11_250], ['5GB', 30, 24_500], ['8GB', 30, 36_000]]),
  ...data('Tri', 'TRI', [['3GB', 30, 17_500], ['6GB', 30, 29_000], ['12GB', 30, 48_500]]),
  ...data('Smartfren', 'SMART', [['6GB', 28, 25_000], ['12GB', 28, 42_500]]),
  ...[20, 50, 100, 200, 500, 1000].map(
    (k): ResellerSimProduct => ({
      code: `PLN${k}`,
      name: `PLN Token ${(k * 1000).toLocaleString('id-ID')}`,
      price: k * 1000 + 200,
      status: 'active',
      brand: 'PLN',
      category: 'pln',
      nominal: k * 1000,
    }),
  ),
  ...game('Mobile Legends', 'ML', 'Diamonds', [
    [5, 1_450], [12, 3_400], [28, 7_900], [44, 12_100], [86, 21_800], [172, 43_500], [257, 64_900],
    [344, 86_500], [429, 108_000], [514, 129_500], [706, 172_000], [878, 215_000],
    ['WDP', 27_500, 'Mobile Legends Weekly Diamond Pass'],
  ]),
  ...game('Free Fire', 'FF', 'Diamonds', [
    [5, 1_000], [12, 2_000], [50, 7_400], [70, 9_700], [140, 19_300], [355, 48_000], [720, 96_000], [1450, 191_000],
  ]),
  ...game('PUBG Mobile', 'PUBG', 'UC', [[60, 14_500], [325, 72_000], [660, 143_000], [1800, 360_000], [3850, 715_000]]),
  ...game('Genshin Impact', 'GI', 'Genesis Crystals', [
    [60, 15_000], [330, 74_000], [1090, 235_000], [2240, 470_000],
    ['WELKIN', 72_000, 'Genshin Impact Blessing of the Welkin Moon'],
  ]),
  ...wallet('DANA', 'DANA', [10, 20, 25, 50, 100, 200], 150),
  ...wallet('OVO', 'OVO', [10, 20, 50, 100], 250),
  ...wallet('GoPay', 'GOPAY', [10, 20, 25, 50, 100, 200], 175),
  ...wallet('ShopeePay', 'SHOPEE', [20, 50, 100], 250),
].map((product) => ({ ...product, status: unavailableProducts[product.code] ?? product.status }));

// ---------------------------------------------------------------------------------------------
// Simulator
// ---------------------------------------------------------------------------------------------

/** A transaction as the simulator holds it (a snapshot; changing it changes nothing). */
export interface ResellerSimTransaction {
  refId: string;
  apiId: string;
  code: string;
  productName: string;
  target: string;
  /** Price debited, integer rupiah. */
  price: number;
  /** `Pending`, `Sukses`, `Gagal`, or whatever a custom `outcome` chose. */
  status: string;
  trxId: string;
  /** '' until Sukses. */
  sn: string;
  createdAt: number;
  /** When it reached Sukses or Gagal. */
  settledAt?: number;
  /** Status checks received (repeats of the ref_id). */
  checks: number;
  /** True once the price has been credited back (Gagal). */
  refunded: boolean;
}

/** What a due transaction turns into: `Sukses`, `Gagal`, `Pending` (not yet) or any other verbatim status. */
export type ResellerOutcome = (transaction: ResellerSimTransaction) => string;

export interface ResellerSimOptions {
  /** Clock for creation times, settlement and trx ids; default `Date.now`. */
  now?: () => number;
  /** Seed of the generator behind serial numbers and tokens; default a fixed seed (deterministic). */
  seed?: number;
  /**
   * A Pending transaction is due to settle this long after its creation. When neither this nor
   * `settleAfterChecks` is given, both apply with their defaults (5 s, 2 checks; whichever comes
   * first); when only one is given, only that one applies. `Infinity` disables a rule.
   */
  settleAfterMs?: number;
  /** A Pending transaction is due to settle on its n-th status check. See `settleAfterMs`. */
  settleAfterChecks?: number;
  /** Settle right at creation: the create answers the outcome (Sukses with SN by default) directly. */
  instant?: boolean;
  /**
   * Chooses what a due transaction becomes. Called each time it is due until it returns Sukses or
   * Gagal. Default `defaultResellerOutcome`.
   */
  outcome?: ResellerOutcome;
  /** Accounts to start with; default every entry of `resellerDemoAccounts`. */
  accounts?: ResellerSimAccount[];
  /** Products to start with; default `resellerDemoProducts`. */
  products?: readonly ResellerSimProduct[];
  /** Answer status checks with the bare `{ status }` of the spec's example, without trx_id and sn. */
  minimalStatusCheck?: boolean;
}

export interface ResellerSim extends SimulatedService {
  /** Every transaction created so far, oldest first (due settlements applied first). */
  transactions(): ResellerSimTransaction[];
  /** The current price list, including unavailable products. */
  products(): ResellerSimProduct[];
  /** The account's balance now (due refunds applied first). Throws for an unknown api_id. */
  balanceOf(apiId: string): number;
  setBalance(apiId: string, balance: number): void;
  /**
   * Forces a transaction's status (the first one with this ref_id, whatever the account). Sukses
   * gets `sn` or a generated one; Gagal credits the price back (once); leaving Gagal debits it
   * again. Throws for an unknown ref_id.
   */
  settle(refId: string, status: string, sn?: string): ResellerSimTransaction;
  /** Changes a product's status (`active` makes it buyable). Throws for an unknown code. */
  setProductStatus(code: string, status: string): void;
  /** Adds an account, or replaces the one with the same api_id. */
  addAccount(account: ResellerSimAccount): void;
}

/**
 * The default outcome, chosen by the target so tests and demos can steer it: a target ending in
 * `0000` fails (Gagal), one ending in `9999` stays Pending forever, anything else succeeds.
 */
export const defaultResellerOutcome: ResellerOutcome = (transaction) => {
  if (transaction.target.endsWith('0000')) return 'Gagal';
  if (transaction.target.endsWith('9999')) return 'Pending';
  return 'Sukses';
};

type Endpoint = 'balance' | 'priceList' | 'transaction';
const endpoints: Record<string, Endpoint> = {
  '/cek-saldo': 'balance',
  '/price-list': 'priceList',
  '/transaction': 'transaction',
};

const defaultSeed = 20240817;
const wibOffsetMs = 7 * 60 * 60 * 1000;

interface Account {
  apiId: string;
  apiKey: string;
  balance: number;
  ipBlocked: boolean;
}

/**
 * Creates the reseller simulator. Its `handle` answers POST `/cek-saldo`, `/price-list` and
 * `/transaction` (paths below `/api/v1`); state lives in memory and nothing happens on its own:
 * due settlements are applied whenever a request or an inspection method looks at the state.
 */
export function createResellerSim(options: ResellerSimOptions = {}): ResellerSim {
  const now = options.now ?? Date.now;
  const random = mulberry32(options.seed ?? defaultSeed);
  const neitherRule = options.settleAfterMs === undefined && options.settleAfterChecks === undefined;
  const settleAfterMs = options.settleAfterMs ?? (neitherRule ? 5000 : Infinity);
  const settleAfterChecks = options.settleAfterChecks ?? (neitherRule ? 2 : Infinity);
  const outcome = options.outcome ?? defaultResellerOutcome;

  const accounts = new Map<string, Account>();
  const addAccount = (account: ResellerSimAccount) =>
    accounts.set(account.apiId, { apiId: account.apiId, apiKey: account.apiKey, balance: account.balance, ipBlocked: account.ipBlocked ?? false });
  for (const account of options.accounts ?? Object.values(resellerDemoAccounts)) addAccount(account);

  const products = new Map<string, ResellerSimProduct>();
  for (const product of options.products ?? resellerDemoProducts) products.set(product.code, { ...product });

  const transactions: ResellerSimTransaction[] = [];
  let sequence = 0;

  const accountOf = (apiId: string): Account => {
    const account = accounts.get(apiId);
    if (!account) throw new Error(`The reseller sandbox has no account "${apiId}"; add it with addAccount().`);
    return account;
  };

  const isFinal = (status: string) => status === 'Sukses' || status === 'Gagal';
  const isDue = (tx: ResellerSimTransaction) =>
    !isFinal(tx.status) && (now() - tx.createdAt >= settleAfterMs || tx.checks >= settleAfterChecks);

  /** Moves a transaction to `status`, keeping the owner's balance consistent with refunds. */
  function apply(tx: ResellerSimTransaction, status: string, sn?: string): void {
    const account = accounts.get(tx.apiId);
    if (status === 'Gagal' && !tx.refunded) {
      if (account) account.balance += tx.price;
      tx.refunded = true;
    } else if (status !== 'Gagal' && tx.refunded) {
      if (account) account.balance -= tx.price;
      tx.refunded = false;
    }
    tx.status = status;
    if (sn !== undefined) tx.sn = sn;
    else if (status === 'Sukses' && tx.sn === '') tx.sn = serialFor(tx);
    else if (status === 'Gagal') tx.sn = '';
    if (isFinal(status)) tx.settledAt = now();
    else delete tx.settledAt;
  }

  function settleIfDue(tx: ResellerSimTransaction): void {
    if (isDue(tx)) apply(tx, outcome({ ...tx }));
  }

  function settleDue(): void {
    for (const tx of transactions) settleIfDue(tx);
  }

  function serialFor(tx: ResellerSimTransaction): string {
    const product = products.get(tx.code);
    if (product?.category === 'pln') {
      const token = digits(20).replace(/(\d{4})(?=\d)/g, '$1-');
      const kwh = ((product.nominal ?? tx.price) / 1444.7).toFixed(1);
      return `${token}/PELANGGAN SANDBOX/R1/1300VA/${kwh}`;
    }
    return digits(20);
  }

  function digits(count: number): string {
    let text = String(1 + Math.floor(random() * 9));
    while (text.length < count) text += String(Math.floor(random() * 10));
    return text;
  }

  function transaction(body: Record<string, string>, account: Account, fail: Fail): SandboxResponse {
    const { ref_id: refId, code, target } = body as Record<'ref_id' | 'code' | 'target', string>;
    const existing = transactions.find((tx) => tx.apiId === account.apiId && tx.refId === refId);
    if (existing) {
      if (existing.code !== code || existing.target !== target) {
        return fail(400, 'ref_id sudah digunakan untuk transaksi lain (kode produk atau tujuan berbeda)');
      }
      existing.checks += 1;
      settleIfDue(existing);
      const answer = options.minimalStatusCheck
        ? { status: existing.status }
        : { status: existing.status, trx_id: existing.trxId, sn: existing.sn };
      return { status: 200, body: answer };
    }

    const product = products.get(code);
    if (!product) return fail(404, 'Produk tidak ditemukan');
    if (product.status !== 'active') {
      return fail(400, `Produk ${product.code} (${product.name}) sedang tidak tersedia: ${product.status}`);
    }
    if (account.balance < product.price) return fail(402, 'Saldo tidak mencukupi');

    account.balance -= product.price;
    sequence += 1;
    const createdAt = now();
    const tx: ResellerSimTransaction = {
      refId,
      apiId: account.apiId,
      code,
      productName: product.name,
      target,
      price: product.price,
      status: 'Pending',
      trxId: `TRX${wibDate(createdAt)}${String(sequence).padStart(6, '0')}`,
      sn: '',
      createdAt,
      checks: 0,
      refunded: false,
    };
    transactions.push(tx);
    if (options.instant) apply(tx, outcome({ ...tx }));
    return { status: 200, body: { success: true, trx_id: tx.trxId, status: tx.status, sn: tx.sn } };
  }

  return {
    handle(request: SandboxRequest): SandboxResponse {
      settleDue();
      const endpoint = endpoints[request.path];
      if (!endpoint) return { status: 404, body: { error: 'Endpoint tidak ditemukan' } };
      const fail: Fail = (status, message) =>
        endpoint === 'transaction' ? { status, body: { success: false, message } } : { status, body: { error: message } };

      if (request.method !== 'POST') return { ...fail(405, 'Metode tidak diizinkan, gunakan POST'), headers: { Allow: 'POST' } };
      if (request.contentType !== 'application/json') return fail(400, 'Content-Type harus application/json');
      if (!isRecord(request.body)) return fail(400, 'Body harus berupa objek JSON yang valid');

      const required = endpoint === 'transaction' ? ['api_id', 'sign', 'ref_id', 'code', 'target'] : ['api_id', 'sign'];
      const body: Record<string, string> = {};
      for (const field of required) {
        const value = request.body[field];
        if (value === undefined || value === null || value === '') return fail(400, `Parameter ${field} wajib diisi`);
        if (typeof value !== 'string') return fail(400, `Parameter ${field} harus berupa string`);
        if (value.trim() === '') return fail(400, `Parameter ${field} wajib diisi`);
        body[field] = value;
      }

      const account = accounts.get(body.api_id!);
      if (!account) return fail(401, 'Signature tidak valid');
      if (account.ipBlocked) return fail(403, 'IP Blocked');
      const signed = account.apiId + account.apiKey + (endpoint === 'transaction' ? body.ref_id! : '');
      if (body.sign !== md5Hex(signed)) return fail(401, 'Signature tidak valid');

      switch (endpoint) {
        case 'balance':
          return { status: 200, body: { data: { balance: account.balance } } };
        case 'priceList':
          return {
            status: 200,
            body: { data: [...products.values()].map((p) => ({ product_name: p.name, code: p.code, price: p.price, status: p.status })) },
          };
        case 'transaction':
          return transaction(body, account, fail);
      }
    },

    transactions() {
      settleDue();
      return transactions.map((tx) => ({ ...tx }));
    },

    products() {
      return [...products.values()].map((product) => ({ ...product }));
    },

    balanceOf(apiId) {
      settleDue();
      return accountOf(apiId).balance;
    },

    setBalance(apiId, balance) {
      accountOf(apiId).balance = balance;
    },

    settle(refId, status, sn) {
      const tx = transactions.find((t) => t.refId === refId);
      if (!tx) throw new Error(`The reseller sandbox has no transaction with ref_id "${refId}".`);
      apply(tx, status, sn);
      return { ...tx };
    },

    setProductStatus(code, status) {
      const product = products.get(code);
      if (!product) throw new Error(`The reseller sandbox has no product "${code}".`);
      product.status = status;
    },

    addAccount(account) {
      addAccount(account);
    },
  };
}

type Fail = (status: number, message: string) => SandboxResponse;

function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/** `YYYYMMDD` in Western Indonesian Time (UTC+7). */
function wibDate(at: number): string {
  return new Date(at + wibOffsetMs).toISOString().slice(0, 10).replaceAll('-', '');
}

/** Small seeded PRNG (mulberry32): the same seed gives the same serial numbers. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
