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
import { ProviderError, isProviderError, redactedInit, redactor, type ProviderErrorInit } from '../provider-error.ts';
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

/** The one error type of the marketplace client; switch on `kind`. */
export class MarketplaceError extends ProviderError {
  constructor(init: ProviderErrorInit) {
    super('marketplace', init);
    this.name = 'MarketplaceError';
    if (this.rejectedBeforeSending) {
      const problems = Object.values(init.fieldErrors ?? {})
        .flat()
        .join(' ');
      this.message = `marketplace ${init.endpoint}: the request was not sent: ${problems}`;
    }
  }
}

export interface MarketplaceClientOptions extends HttpOptions {
  /** The service root, e.g. `https://market.example.com` (paths start with `/api/...`). */
  baseURL: string;
  apiKey: string;
  /** Extra attempts after a timeout, network error or 5xx; default 2. */
  retries?: number;
}

export interface MarketplaceClient {
  /**
   * GET /api/account/details: the seller who owns the key. Every call here only reads, so each is
   * retried twice on timeout, network error or 5xx. Throws `MarketplaceError`: `credentials` for an
   * unknown key (`Invalid request`), `malformed`, `unknown_outcome`.
   */
  accountDetails(): Promise<Account>;
  /** GET /api/items/all: the seller's items in the marketplace's order; `No Items Found` is `[]`. Throws like `accountDetails`. */
  items(): Promise<Item[]>;
  /**
   * GET /api/items/item: one of the seller's items by id. Throws `not_found` (`Item Not Found`,
   * also for another seller's item), `validation` without sending when `id` is not a positive
   * integer, else like `accountDetails`.
   */
  item(id: number): Promise<Item>;
  /**
   * POST /api/purchases/validation: the purchase of a buyer's code (trimmed). Throws `not_found`
   * (`Invalid purchase code`, also another seller's code), `validation` without sending for an
   * empty code, else like `accountDetails`.
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
export function createMarketplaceClient({ apiKey, retries = 2, ...http }: MarketplaceClientOptions): MarketplaceClient {
  const key = apiKey.trim();
  const redact = redactor([key]);
  const fail = (init: ProviderErrorInit) => new MarketplaceError(redactedInit(init, redact));
  /** Sends a request (GET: the key in the query; POST: in the form body) and reads its documented body. */
  const request = async <T extends z.ZodType>(
    path: string,
    schema: T,
    fields: Record<string, string> = {},
    method: 'GET' | 'POST' = 'GET',
  ) => {
    const parameters = { api_key: key, ...fields };
    const where = method === 'GET' ? { query: parameters } : { body: new URLSearchParams(parameters) };
    return read(await send(http, { method, path, ...where, retries, fail }), path, schema, fail);
  };

  return {
    accountDetails: async () => (await request(paths.account, accountDetailsResponseSchema)).data,

    async items() {
      try {
        return (await request(paths.items, itemsResponseSchema)).items;
      } catch (error) {
        // An empty shop is answered as an error; callers show "no items yet" rather than a failure.
        if (isProviderError(error) && error.kind !== 'credentials' && sameText(error.providerMessage, 'No Items Found')) return [];
        throw error;
      }
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
      return (await request(paths.item, itemResponseSchema, { item_id: String(id) })).item;
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
      return (await request(paths.validation, validationResponseSchema, { purchase_code: purchaseCode }, 'POST')).data.purchase;
    },
  };
}

/**
 * Reads an answer (5xx, timeouts and network errors were already thrown by `send`): the
 * documented success body, or throws the error it means. HTTP 401/403 decide first (they are
 * about access whatever the body says); otherwise the body's `status` decides.
 */
function read<T extends z.ZodType>(answer: RawAnswer, endpoint: string, schema: T, fail: (init: ProviderErrorInit) => Error): z.output<T> {
  const { status: httpStatus, json, notJson } = answer;
  const errorBody = errorBodySchema.safeParse(json);
  const msg = errorBody.success ? errorBody.data.msg?.trim() || undefined : messageOf(json);
  const refused = (kind: ProviderErrorInit['kind']) => fail({ kind, endpoint, httpStatus, providerMessage: msg });
  const malformed = (reason: string) => fail({ kind: 'malformed', endpoint, httpStatus, cause: new Error(reason) });

  if (httpStatus === 401) throw refused('credentials');
  // 403 is an access refusal too; it is about this server's IP only when the marketplace says so.
  if (httpStatus === 403) throw refused(mentionsIp(msg) ? 'ip_blocked' : 'credentials');
  // An HTML error page or a proxy's text: not the documented API (a wrong base URL, say).
  if (notJson) throw malformed(`HTTP ${httpStatus} with a body that is not JSON`);
  if (errorBody.success) {
    if (sameText(msg, 'Invalid request')) throw refused('credentials');
    if (sameText(msg, 'Item Not Found') || sameText(msg, 'Invalid purchase code') || httpStatus === 404) throw refused('not_found');
    throw refused('rejected');
  }
  if (isRecord(json) && json.status === 'success') {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    throw malformed(summariseIssues(parsed.error));
  }
  // JSON without the documented envelope: a refusal in some other words (429 from a proxy, say)
  // keeps its message; anything else is not the documented API.
  if (httpStatus >= 400 && msg !== undefined) throw refused('rejected');
  throw malformed(`HTTP ${httpStatus} with a body whose status is neither "success" nor "error"`);
}

function sameText(actual: string | undefined, expected: string): boolean {
  return actual !== undefined && actual.trim().toLowerCase() === expected.toLowerCase();
}

function mentionsIp(message: string | undefined): boolean {
  return message !== undefined && /\bip\b|whitelist|allowlist|ip address|not allowed from/i.test(message);
}
