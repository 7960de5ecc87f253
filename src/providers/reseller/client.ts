/**
 * Client for the reseller top-up API (document 1, `reseller-topup-api.md`): balance, price list,
 * purchase and status check. Every request is a POST with a JSON body carrying `api_id` and an
 * MD5 `sign`; the api key itself never leaves this module, and neither it nor a sign ever appears
 * in an error.
 */
import type { z } from 'zod';
import { send, messageOf, type RawAnswer } from '../http.ts';
import { ProviderError, type ProviderErrorInit } from '../provider-error.ts';
import { signBalance, signTransaction } from './sign.ts';
import {
  balanceResponseSchema,
  priceListResponseSchema,
  transactionResponseSchema,
  type Product,
  type TransactionResult,
} from './schemas.ts';

/** The one error type of the reseller client; switch on `kind`. */
export class ResellerError extends ProviderError {
  constructor(init: ProviderErrorInit) {
    super('reseller', init);
    this.name = 'ResellerError';
  }
}

export interface ResellerClientOptions {
  /** Base address ending in `/api/v1`, e.g. `https://reseller.example/api/v1`. */
  baseURL: string;
  apiId: string;
  apiKey: string;
  /** Per-request timeout; default 15 s. */
  timeoutMs?: number;
  /** Pause before the n-th retry is n times this; default 300 ms (tests shorten it). */
  retryDelayMs?: number;
}

/** One purchase as sent on the wire. Resend exactly the same three values to check its status. */
export interface TransactionRequest {
  /** Our own id, minted once per confirmed purchase and persisted before the first request. */
  refId: string;
  /** Product code from the price list. */
  code: string;
  /** Destination: phone number, meter number, game id, ... */
  target: string;
}

export interface ResellerClient {
  /** POST /cek-saldo: the available balance in rupiah. Retried twice on timeout, network error or 5xx. */
  balance(): Promise<number>;
  /** POST /price-list: every product, in the provider's order, statuses verbatim. Retried like `balance`. */
  priceList(): Promise<Product[]>;
  /**
   * POST /transaction, sent once and never retried. Usually answers `Pending` with a `trxId`.
   * Throws `ResellerError`: `insufficient_balance` (402), `not_found` (unknown code), `rejected`
   * (inactive product, reused ref_id, any other refusal, with the provider's message),
   * `credentials`, `ip_blocked`, `malformed`, or `unknown_outcome` — timeout, network error or
   * 5xx: the transaction may or may not exist, so keep it Pending and reconcile it with
   * `checkTransaction` under the same ref_id, never by creating a new one.
   */
  createTransaction(request: TransactionRequest): Promise<TransactionResult>;
  /**
   * The same POST /transaction resent with the original ref_id, code and target: the provider
   * answers the current status and creates nothing new. Safe to repeat, so retried twice on
   * timeout, network error or 5xx. Throws `ResellerError` as `createTransaction` does.
   */
  checkTransaction(request: TransactionRequest): Promise<TransactionResult>;
}

const balancePath = '/cek-saldo';
const priceListPath = '/price-list';
const transactionPath = '/transaction';

/** Extra attempts for requests that are safe to repeat. A create is never repeated automatically. */
const safeRetries = 2;

/**
 * Builds a reseller client for one account. `apiId` and `apiKey` are trimmed (pasted credentials
 * often carry whitespace). The key and every sign computed from it are scrubbed from any provider
 * message before it goes into an error, in case the provider echoes them back.
 */
export function createResellerClient({ baseURL, apiId, apiKey, timeoutMs = 15000, retryDelayMs }: ResellerClientOptions): ResellerClient {
  const id = apiId.trim();
  const key = apiKey.trim();
  const http = { baseURL, timeoutMs, retryDelayMs };
  const balanceSign = signBalance(id, key);

  /** An error factory that scrubs this request's secrets from whatever the provider said. */
  const failWith =
    (...secrets: string[]) =>
    (init: ProviderErrorInit): ResellerError =>
      new ResellerError({
        ...init,
        providerMessage: init.providerMessage === undefined ? undefined : redact(init.providerMessage, [key, ...secrets]),
      });

  async function transact(request: TransactionRequest, retries: number): Promise<TransactionResult> {
    const sign = signTransaction(id, key, request.refId);
    const fail = failWith(sign);
    const body = { api_id: id, sign, ref_id: request.refId, code: request.code, target: request.target };
    const answer = await send(http, { method: 'POST', path: transactionPath, body, retries, fail });
    return readSuccess(answer, transactionPath, transactionResponseSchema, fail);
  }

  return {
    async balance() {
      const fail = failWith(balanceSign);
      const body = { api_id: id, sign: balanceSign };
      const answer = await send(http, { method: 'POST', path: balancePath, body, retries: safeRetries, fail });
      return readSuccess(answer, balancePath, balanceResponseSchema, fail).data.balance;
    },

    async priceList() {
      const fail = failWith(balanceSign);
      const body = { api_id: id, sign: balanceSign };
      const answer = await send(http, { method: 'POST', path: priceListPath, body, retries: safeRetries, fail });
      return readSuccess(answer, priceListPath, priceListResponseSchema, fail).data;
    },

    createTransaction: (request) => transact(request, 0),
    checkTransaction: (request) => transact(request, safeRetries),
  };
}

/**
 * Turns an answer into the documented success body, or throws the matching error. The status
 * code decides (DESIGN.md's mapping); the body supplies the provider's message.
 */
function readSuccess<T extends z.ZodType>(
  answer: RawAnswer,
  endpoint: string,
  schema: T,
  fail: (init: ProviderErrorInit) => ResellerError,
): z.output<T> {
  const { status, json, notJson } = answer;
  const httpStatus = status;
  const providerMessage = messageOf(json);

  if (status === 401) throw fail({ kind: 'credentials', endpoint, httpStatus, providerMessage });
  if (status === 402) throw fail({ kind: 'insufficient_balance', endpoint, httpStatus, providerMessage });
  if (status === 403) throw fail({ kind: 'ip_blocked', endpoint, httpStatus, providerMessage });
  // A body that is not JSON at all (an HTML error page, a proxy's text) means we are not talking
  // to the documented API, e.g. a wrong base URL: say so rather than guess from the status.
  if (notJson) {
    throw fail({ kind: 'malformed', endpoint, httpStatus, cause: new Error(`HTTP ${status} with a body that is not JSON`) });
  }
  if (status === 404) throw fail({ kind: 'not_found', endpoint, httpStatus, providerMessage });
  if (status >= 200 && status < 300) {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    // A 2xx that says `success: false` or carries an `error` is a refusal, not a broken body.
    if (isRecord(json) && (json.success === false || typeof json.error === 'string')) {
      throw fail({ kind: 'rejected', endpoint, httpStatus, providerMessage });
    }
    throw fail({ kind: 'malformed', endpoint, httpStatus, cause: new Error(summariseIssues(parsed.error)) });
  }
  // 400 and anything else (405, 409, 429, an unfollowed 3xx): the provider's own words.
  throw fail({ kind: 'rejected', endpoint, httpStatus, providerMessage });
}

/** Replaces every occurrence of each secret (case-insensitively: a sign may be echoed in upper case). */
function redact(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    result = result.replace(new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '***');
  }
  return result;
}

/** Where a body broke the schema, without any of its values (they could be personal data). */
function summariseIssues(error: z.ZodError): string {
  const lines = error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return `body does not match the documented schema: ${lines.join('; ')}${more}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
