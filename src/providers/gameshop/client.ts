/**
 * Client for the game top-up shop (document 3, `gameshop-api.md`): the game catalogue and order
 * creation. Every request carries `Accept: application/json` and the user's `X-API-KEY`.
 */
import { z } from 'zod';
import { send, readSuccess, type AnswerRules, type HttpOptions } from '../http.ts';
import { ProviderError, redactedInit, redactor, type ProviderErrorInit } from '../provider-error.ts';
import {
  errorBodySchema,
  gamesResponseSchema,
  orderInputSchema,
  orderResponseSchema,
  type Game,
  type GameOrder,
  type OrderInput,
} from './schemas.ts';

/**
 * Why a 422 without per-field errors was refused, when it can be told: the product is of another
 * game, or the promo code is unknown, expired or not applicable. The spec gives only
 * `{ success:false, message }`, so it is read from an `error_code` when one is sent, else from the
 * message text (Indonesian or English); the provider's message is always kept.
 */
export type GameshopRejectReason = 'product_mismatch' | 'promo_invalid';

type GameshopErrorInit = ProviderErrorInit & { reason?: GameshopRejectReason };

/** The one error type of the game shop client; switch on `kind` (and `reason` for `rejected`). */
export class GameshopError extends ProviderError {
  readonly reason: GameshopRejectReason | undefined;

  constructor(init: GameshopErrorInit) {
    super('gameshop', init);
    this.name = 'GameshopError';
    this.reason = init.reason;
    if (this.rejectedBeforeSending) {
      const fields = Object.keys(init.fieldErrors ?? {}).join(', ');
      this.message = `gameshop ${init.endpoint}: the order was not sent because some fields are invalid (${fields}); correct them and try again`;
    }
  }
}

export interface GameshopClientOptions extends HttpOptions {
  /** Base address ending in `/api`, e.g. `https://shop.example/api`. */
  baseURL: string;
  apiKey: string;
}

export interface GameshopClient {
  /** GET /games: the games (each with its category) and the popular ones (without), in the shop's order; retried twice. */
  games(): Promise<{ games: Game[]; popular: Game[] }>;
  /**
   * POST /order: validates `input` (see `orderInputSchema`), then creates the order once —
   * never retried. Throws `GameshopError`: `validation` (with `fieldErrors`, from us or the shop),
   * `rejected` (product of another game, invalid promo; see `reason`), `not_found` (game, product
   * or payment method), `credentials`, `ip_blocked`, `malformed`, or `unknown_outcome` (timeout,
   * network error or 500: the order may or may not exist, so do not blindly order again).
   */
  createOrder(input: OrderInput): Promise<{ orderId: string; order: GameOrder; message: string }>;
}

const gamesPath = '/games';
const orderPath = '/order';

/**
 * Builds a game shop client for one API key. The key is trimmed (pasted keys often carry
 * whitespace), sent only as the `X-API-KEY` header, and scrubbed from every error text.
 */
export function createGameshopClient({ apiKey, ...http }: GameshopClientOptions): GameshopClient {
  const key = apiKey.trim();
  const headers = { 'X-API-KEY': key }; // `send` adds `Accept: application/json` to every request
  const redact = redactor([key]);
  const fail = (init: GameshopErrorInit): GameshopError => new GameshopError(redactedInit(init, redact));

  return {
    async games() {
      const answer = await send(http, { method: 'GET', path: gamesPath, headers, retries: 2, fail });
      const body = readSuccess(answer, gamesPath, gamesResponseSchema, fail, gameshopRules(gamesPath, fail));
      return { games: body.games, popular: body.populerGames };
    },

    async createOrder(input) {
      const parsed = orderInputSchema.safeParse(input);
      if (!parsed.success) {
        throw fail({ kind: 'validation', endpoint: orderPath, fieldErrors: fieldErrorsOf(parsed.error), rejectedBeforeSending: true });
      }
      const body: Record<string, unknown> = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined));
      const answer = await send(http, { method: 'POST', path: orderPath, headers, body, retries: 0, fail });
      const created = readSuccess(answer, orderPath, orderResponseSchema, fail, gameshopRules(orderPath, fail));
      return { orderId: created.orderId, order: created.data, message: created.message };
    },
  };
}

/**
 * The game shop's departures from the common rules: a 422 carries per-field errors, or else a
 * refusal whose reason may be told; a 2xx `success: false` with a message is a refusal.
 */
function gameshopRules(endpoint: string, fail: (init: GameshopErrorInit) => GameshopError): AnswerRules {
  return {
    explain({ status, json }, providerMessage) {
      if (status !== 422) return undefined;
      const httpStatus = status;
      const error = errorBodySchema.safeParse(json);
      const fieldErrors = error.success ? normaliseFieldErrors(error.data.errors) : undefined;
      if (fieldErrors) return fail({ kind: 'validation', endpoint, httpStatus, providerMessage, fieldErrors });
      const errorCode = error.success ? error.data.error_code : undefined;
      return fail({ kind: 'rejected', endpoint, httpStatus, providerMessage, reason: rejectReasonOf(errorCode, providerMessage) });
    },
    isRefusal: (body, providerMessage) => body.success === false && providerMessage !== undefined,
  };
}

/** `{ field: [msg] }` (or `{ field: msg }`) → `{ field: [msg] }`; undefined when there is none. */
function normaliseFieldErrors(errors: Record<string, string[] | string> | undefined): Record<string, string[]> | undefined {
  if (!errors) return undefined;
  const entries = Object.entries(errors)
    .map(([field, messages]): [string, string[]] => [
      field,
      (Array.isArray(messages) ? messages : [messages]).filter((m) => m.trim() !== ''),
    ])
    .filter(([, messages]) => messages.length > 0);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function rejectReasonOf(errorCode: string | undefined, message: string | undefined): GameshopRejectReason | undefined {
  const code = errorCode?.toUpperCase() ?? '';
  if (code.includes('PROMO') || code.includes('VOUCHER') || code.includes('COUPON')) return 'promo_invalid';
  if (code.includes('PRODUCT')) return 'product_mismatch';
  const text = message?.toLowerCase() ?? '';
  if (/promo|voucher|kupon|coupon/.test(text)) return 'promo_invalid';
  if (/produk|product/.test(text) && /tidak sesuai|bukan|does not (belong|match)|mismatch|not (belong|match)/.test(text)) {
    return 'product_mismatch';
  }
  return undefined;
}

/** Our own validation failures, keyed by the API's field names (the schema's keys; `body` for the input as a whole). */
function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const { formErrors, fieldErrors } = z.flattenError(error);
  return { ...(formErrors.length > 0 ? { body: formErrors } : {}), ...(fieldErrors as Record<string, string[]>) };
}
