/**
 * Client for the digital-item marketplace (document 2, `marketplace-api.md`): the seller's
 * account, their items, one item, and purchase-code validation.
 *
 * The spec does not say where `api_key` goes; per DESIGN.md it is sent in the query string of
 * GETs (next to `item_id`) and in the form body (`application/x-www-form-urlencoded`) of the POST
 * (next to `purchase_code`). Success or failure is read from the body's `status`, whatever the
 * HTTP code, and the marketplace's `msg` is kept as `providerMessage` for the user.
 */
import type { z } from 'zod';
import { send, messageOf, isRecord, summariseIssues, type RawAnswer, type HttpOptions } from '../http.ts';
import { ProviderError, type ProviderErrorInit } from '../provider-error.ts';
import {
  accountDetailsResponseSchema,
  errorBodySchema,
  itemResponseSchema,
  itemsResponseSchema,
  validationResponseSchema,
  type Account,
  type Item,
  type Purchase,
} from './schemas.ts';

export interface MarketplaceErrorInit extends ProviderErrorInit {
  /** True when the request was refused by our own checks and never sent. */
  rejectedBeforeSending?: boolean;
}

/** The one error type of the marketplace client; switch on `kind`. */
export class MarketplaceError extends ProviderError {
  /** True when nothing was sent: the input failed our own checks (`kind` is then `validation`). */
  readonly rejectedBeforeSending: boolean;

  constructor(init: MarketplaceErrorInit) {
    super('marketplace', init);
    this.name = 'MarketplaceError';
    this.rejectedBeforeSending = init.rejectedBeforeSending ?? false;
    if (this.rejectedBeforeSending) {
      const problems = Object.values(init.fieldErrors ?? {})
        .flat()
        .join(' ');
      this.message = `marketplace ${init.endpoint}: the request was not sent: ${problems}`;
    }
  }
}

export interface MarketplaceClientOptions {
  /** The service root, e.g. `https://market.example.com` (paths start with `/api/...`). */
  baseURL: string;
  apiKey: string;
  /** Per-request timeout; default 15 s. */
  timeoutMs?: number;
  /** Told of every request (endpoint, status, duration) for the logs. */
  onCall?: HttpOptions['onCall'];
  /** Pause before the n-th retry is n times this; default 300 ms (tests shorten it). */
  retryDelayMs?: number;
  /** Extra attempts after a timeout, network error or 5xx; default 2 (every call here only reads). */
  retries?: number;
}

export interface MarketplaceClient {
  /**
   * GET /api/account/details: the seller who owns the key (name, balance, profile). Retried twice
   * on timeout, network error or 5xx. Throws `MarketplaceError`: `credentials` for an unknown key
   * (`Invalid request`), `malformed`, `unknown_outcome`.
   */
  accountDetails(): Promise<Account>;
  /**
   * GET /api/items/all: every item of the seller, in the marketplace's order. An empty shop is
   * not an error: the marketplace's `No Items Found` answer is returned as `[]`, so callers show
   * "no items yet" rather than a failure. Retried twice; throws like `accountDetails`.
   */
  items(): Promise<Item[]>;
  /**
   * GET /api/items/item: one of the seller's items by id. Throws `not_found` (`Item Not Found`,
   * also for another seller's item), `validation` without sending when `id` is not a positive
   * integer, else like `accountDetails`.
   */
  item(id: number): Promise<Item>;
  /**
   * POST /api/purchases/validation: checks a buyer's purchase code (trimmed) against the seller's
   * sales and returns the purchase (licence, price, support end, downloaded). Reads only, so it is
   * retried twice. Throws `not_found` with `providerMessage` `Invalid purchase code` for an
   * unknown code or another seller's code, `validation` without sending for an empty code, else
   * like `accountDetails`.
   */
  validatePurchase(code: string): Promise<Purchase>;
}

const paths = {
  account: '/api/account/details',
  items: '/api/items/all',
  item: '/api/items/item',
  validation: '/api/purchases/validation',
} as const;

/**
 * Builds a marketplace client for one API key. The key is trimmed (pasted keys often carry
 * whitespace) and scrubbed from every error text, message and cause alike — transport errors
 * would otherwise quote the request URL with the key in its query string.
 */
export function createMarketplaceClient({
  baseURL,
  apiKey,
  timeoutMs = 15000,
  retries = 2,
  retryDelayMs,
  onCall,
}: MarketplaceClientOptions): MarketplaceClient {
  const key = apiKey.trim();
  const http = { baseURL, timeoutMs, retryDelayMs, onCall };
  const redact = redactor(key);
  const fail = (init: MarketplaceErrorInit): MarketplaceError =>
    new MarketplaceError({
      ...init,
      providerMessage: init.providerMessage === undefined ? undefined : redact(init.providerMessage),
      cause:
        init.cause instanceof Error
          ? new Error(redact(`${init.cause.message}`))
          : init.cause === undefined
            ? undefined
            : new Error('transport error'),
    });

  const get = (path: string, query: Record<string, string> = {}): Promise<RawAnswer> =>
    send(http, { method: 'GET', path, query: { api_key: key, ...query }, retries, fail });

  return {
    async accountDetails() {
      const answer = await get(paths.account);
      return expectSuccess(read(answer, paths.account, accountDetailsResponseSchema, fail)).data;
    },

    async items() {
      const answer = await get(paths.items);
      const outcome = read(answer, paths.items, itemsResponseSchema, fail);
      if (!outcome.ok && outcome.error.kind !== 'credentials' && sameText(outcome.msg, 'No Items Found')) return [];
      return expectSuccess(outcome).items;
    },

    async item(id) {
      if (!Number.isSafeInteger(id) || id <= 0) {
        throw fail({
          kind: 'validation',
          endpoint: paths.item,
          fieldErrors: { item_id: ['The item id must be a positive whole number.'] },
          rejectedBeforeSending: true,
        });
      }
      const answer = await get(paths.item, { item_id: String(id) });
      return expectSuccess(read(answer, paths.item, itemResponseSchema, fail)).item;
    },

    async validatePurchase(code) {
      const purchaseCode = code.trim();
      if (purchaseCode === '') {
        throw fail({
          kind: 'validation',
          endpoint: paths.validation,
          fieldErrors: { purchase_code: ['The purchase code is empty; paste the code from the buyer.'] },
          rejectedBeforeSending: true,
        });
      }
      const body = new URLSearchParams({ api_key: key, purchase_code: purchaseCode });
      const answer = await send(http, { method: 'POST', path: paths.validation, body, retries, fail });
      return expectSuccess(read(answer, paths.validation, validationResponseSchema, fail)).data.purchase;
    },
  };
}

type Outcome<T> = { ok: true; body: T } | { ok: false; error: MarketplaceError; msg: string | undefined };

function expectSuccess<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.body;
}

/**
 * Reads an answer (5xx, timeouts and network errors were already thrown by `send`): the
 * documented success body, or the error it means. HTTP 401/403 decide first (they are about
 * access whatever the body says); otherwise the body's `status` decides.
 */
function read<T extends z.ZodType>(
  answer: RawAnswer,
  endpoint: string,
  schema: T,
  fail: (init: MarketplaceErrorInit) => MarketplaceError,
): Outcome<z.output<T>> {
  const { status: httpStatus, json, notJson } = answer;
  const errorBody = errorBodySchema.safeParse(json);
  const msg = errorBody.success ? errorBody.data.msg?.trim() || undefined : messageOf(json);
  const refused = (kind: ProviderErrorInit['kind']): Outcome<never> => ({
    ok: false,
    msg,
    error: fail({ kind, endpoint, httpStatus, providerMessage: msg }),
  });

  if (httpStatus === 401) return refused('credentials');
  // 403 is an access refusal too; it is about this server's IP only when the marketplace says so.
  if (httpStatus === 403) return refused(mentionsIp(msg) ? 'ip_blocked' : 'credentials');
  if (notJson) {
    // An HTML error page or a proxy's text: not the documented API (a wrong base URL, say).
    const error = fail({ kind: 'malformed', endpoint, httpStatus, cause: new Error(`HTTP ${httpStatus} with a body that is not JSON`) });
    return { ok: false, msg: undefined, error };
  }
  if (errorBody.success) {
    if (sameText(msg, 'Invalid request')) return refused('credentials');
    if (sameText(msg, 'Item Not Found') || sameText(msg, 'Invalid purchase code') || httpStatus === 404) return refused('not_found');
    return refused('rejected');
  }
  if (isRecord(json) && json.status === 'success') {
    const parsed = schema.safeParse(json);
    if (parsed.success) return { ok: true, body: parsed.data };
    const error = fail({ kind: 'malformed', endpoint, httpStatus, cause: new Error(summariseIssues(parsed.error)) });
    return { ok: false, msg: undefined, error };
  }
  // JSON without the documented envelope: a refusal in some other words (429 from a proxy, say)
  // keeps its message; anything else is not the documented API.
  if (httpStatus >= 400 && msg !== undefined) return refused('rejected');
  const error = fail({
    kind: 'malformed',
    endpoint,
    httpStatus,
    cause: new Error(`HTTP ${httpStatus} with a body whose status is neither "success" nor "error"`),
  });
  return { ok: false, msg: undefined, error };
}

function sameText(actual: string | undefined, expected: string): boolean {
  return actual !== undefined && actual.trim().toLowerCase() === expected.toLowerCase();
}

function mentionsIp(message: string | undefined): boolean {
  return message !== undefined && /\bip\b|whitelist|allowlist|ip address|not allowed from/i.test(message);
}

/** Replaces the key, raw and URL-encoded in both styles, by `***`. */
function redactor(key: string): (text: string) => string {
  if (key === '') return (text) => text;
  const forms = [...new Set([key, encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2)])];
  return (text) => forms.reduce((result, form) => result.split(form).join('***'), text);
}
