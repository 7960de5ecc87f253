/**
 * Client for the reseller top-up API (document 1, `reseller-topup-api.md`): balance, price list,
 * purchase and status check. Every request is a POST with a JSON body carrying `api_id` and an
 * MD5 `sign`; the api key itself never leaves this module, and neither it nor a sign ever appears
 * in an error.
 */
import { send, readSuccess, type AnswerRules, type HttpOptions } from '../http.ts';
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
  /** Told of every request (endpoint, status, duration) for the logs. */
  onCall?: HttpOptions['onCall'];
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
export function createResellerClient({
  baseURL,
  apiId,
  apiKey,
  timeoutMs = 15000,
  retryDelayMs,
  onCall,
}: ResellerClientOptions): ResellerClient {
  const id = apiId.trim();
  const key = apiKey.trim();
  const http = { baseURL, timeoutMs, retryDelayMs, onCall };
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
    return readSuccess(answer, transactionPath, transactionResponseSchema, fail, resellerRules);
  }

  return {
    async balance() {
      const fail = failWith(balanceSign);
      const body = { api_id: id, sign: balanceSign };
      const answer = await send(http, { method: 'POST', path: balancePath, body, retries: safeRetries, fail });
      return readSuccess(answer, balancePath, balanceResponseSchema, fail, resellerRules).data.balance;
    },

    async priceList() {
      const fail = failWith(balanceSign);
      const body = { api_id: id, sign: balanceSign };
      const answer = await send(http, { method: 'POST', path: priceListPath, body, retries: safeRetries, fail });
      return readSuccess(answer, priceListPath, priceListResponseSchema, fail, resellerRules).data;
    },

    createTransaction: (request) => transact(request, 0),
    checkTransaction: (request) => transact(request, safeRetries),
  };
}

/** The reseller's departures from the common rules: 402 is a purchase beyond the deposit. */
const resellerRules: AnswerRules = {
  statusKinds: { 402: 'insufficient_balance' },
  // A 2xx that says `success: false` or carries an `error` is a refusal, not a broken body.
  isRefusal: (body) => body.success === false || typeof body.error === 'string',
};

/** Replaces every occurrence of each secret (case-insensitively: a sign may be echoed in upper case). */
function redact(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    result = result.replace(new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '***');
  }
  return result;
}
