/**
 * Client for the reseller top-up API (document 1, `reseller-topup-api.md`): balance, price list,
 * purchase and status check. Every request is a POST with a JSON body carrying `api_id` and an
 * MD5 `sign`; the api key itself never leaves this module, and neither it nor a sign ever appears
 * in an error.
 */
import type { z } from 'zod';
import { send, readSuccess, type AnswerRules, type HttpOptions } from '../http.ts';
import { ProviderError, redactedInit, redactor, type ProviderErrorInit } from '../provider-error.ts';
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

export interface ResellerClientOptions extends HttpOptions {
  /** Base address ending in `/api/v1`, e.g. `https://reseller.example/api/v1`. */
  baseURL: string;
  apiId: string;
  apiKey: string;
}

/**
 * One purchase as sent on the wire; resend exactly the same three values to check its status.
 * `refId` is minted once per confirmed purchase and persisted before the first request.
 */
export interface TransactionRequest {
  refId: string;
  code: string;
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
   * answers the current status and creates nothing new, so it is retried like `balance`.
   */
  checkTransaction(request: TransactionRequest): Promise<TransactionResult>;
}

/** Extra attempts for requests that are safe to repeat. A create is never repeated automatically. */
const safeRetries = 2;

/**
 * A reseller client for one account (credentials trimmed: pasted ones often carry whitespace). The
 * key and every sign are scrubbed from any provider message before it goes into an error.
 */
export function createResellerClient({ apiId, apiKey, ...http }: ResellerClientOptions): ResellerClient {
  const id = apiId.trim();
  const key = apiKey.trim();
  const balanceSign = signBalance(id, key);

  async function post<T extends z.ZodType>(path: string, schema: T, sign: string, retries: number, fields = {}): Promise<z.output<T>> {
    const fail = (init: ProviderErrorInit) => new ResellerError(redactedInit(init, redactor([key, sign])));
    const answer = await send(http, { method: 'POST', path, body: { api_id: id, sign, ...fields }, retries, fail });
    return readSuccess(answer, path, schema, fail, resellerRules);
  }

  const transact = ({ refId, code, target }: TransactionRequest, retries: number) =>
    post('/transaction', transactionResponseSchema, signTransaction(id, key, refId), retries, { ref_id: refId, code, target });

  return {
    balance: async () => (await post('/cek-saldo', balanceResponseSchema, balanceSign, safeRetries)).data.balance,
    priceList: async () => (await post('/price-list', priceListResponseSchema, balanceSign, safeRetries)).data,
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
