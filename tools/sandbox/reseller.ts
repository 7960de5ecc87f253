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
import { z } from 'zod';
import { checkUnique, commentField, loadDemoData } from './data.ts';
import type { SandboxRequest, SandboxResponse, SimulatedService } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Demo data (tools/sandbox/records/reseller.json)
// ---------------------------------------------------------------------------------------------

export interface ResellerSimAccount {
  apiId: string;
  apiKey: string;
  /** Starting balance in rupiah. */
  balance: number;
  /** Every request of this account is answered 403 'IP Blocked'. */
  ipBlocked?: boolean;
}

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

const rupiah = z.number().int().nonnegative();

const accountSchema = z.strictObject({
  apiId: z.string().min(1),
  apiKey: z.string().min(1),
  balance: rupiah,
  ipBlocked: z.boolean().optional(),
}) satisfies z.ZodType<ResellerSimAccount>;

const productSchema = z.strictObject({
  code: z.string().min(1),
  name: z.string().min(1),
  price: rupiah,
  status: z.string().min(1),
  brand: z.string().min(1),
  category: z.enum(['pulsa', 'data', 'pln', 'game', 'ewallet']),
  nominal: rupiah.optional(),
}) satisfies z.ZodType<ResellerSimProduct>;

/** The shape of `data/reseller.json`; the named accounts are the ones tests and the README use. */
export const resellerDemoDataSchema = z
  .strictObject({
    ...commentField,
    accounts: z.strictObject({ main: accountSchema, second: accountSchema, poor: accountSchema, blocked: accountSchema }),
    products: z.array(productSchema).min(1),
  })
  .superRefine((data, context) => {
    checkUnique(
      context,
      Object.values(data.accounts).map((a) => a.apiId),
      () => ['accounts'],
      'apiId',
    );
    checkUnique(
      context,
      data.products.map((p) => p.code),
      (i) => ['products', i, 'code'],
      'product code',
    );
  });

const resellerDemoData = loadDemoData('reseller.json', resellerDemoDataSchema);

/**
 * Accounts the simulator knows by default (sandbox only; these keys are not secrets):
 * - `main`: the everyday demo account, Rp 1.000.000;
 * - `second`: a second ordinary account (another user of the same bot), Rp 250.000;
 * - `poor`: almost empty, Rp 5.000: enough for a small game top-up (FF5, ML5) but for no pulsa;
 * - `blocked`: its whitelist does not contain this server's IP, every request gets 403.
 */
export const resellerDemoAccounts = resellerDemoData.accounts;

/** The simulated price list (123 products, 9 of them unavailable), in the order /price-list answers it. */
export const resellerDemoProducts: readonly ResellerSimProduct[] = resellerDemoData.products;

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
  /**
   * Changes a product's price and/or status (`active`, `gangguan`, `kosong`, `nonaktif` or any
   * other verbatim word), as a provider does between two price lists. Throws for an unknown code.
   */
  setProduct(code: string, change: { price?: number; status?: string }): void;
  /** Adds a product at the end of the price list (or replaces the one with the same code). */
  addProduct(product: ResellerSimProduct): void;
  /** Takes a product off the price list; buying it then answers 404. Throws for an unknown code. */
  removeProduct(code: string): void;
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
    accounts.set(account.apiId, {
      apiId: account.apiId,
      apiKey: account.apiKey,
      balance: account.balance,
      ipBlocked: account.ipBlocked ?? false,
    });
  for (const account of options.accounts ?? Object.values(resellerDemoAccounts)) addAccount(account);

  const products = new Map<string, ResellerSimProduct>();
  for (const product of options.products ?? resellerDemoProducts) products.set(product.code, { ...product });

  const transactions: ResellerSimTransaction[] = [];
  let sequence = 0;

  const productOf = (code: string): ResellerSimProduct => {
    const product = products.get(code);
    if (!product) throw new Error(`The reseller sandbox has no product "${code}".`);
    return product;
  };

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
      productOf(code).status = status;
    },

    setProduct(code, change) {
      const product = productOf(code);
      if (change.price !== undefined) product.price = rupiah.parse(change.price);
      if (change.status !== undefined) product.status = z.string().min(1).parse(change.status);
    },

    addProduct(product) {
      products.set(product.code, productSchema.parse(product));
    },

    removeProduct(code) {
      productOf(code);
      products.delete(code);
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
