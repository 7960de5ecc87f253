import type { ServiceName } from '../domain.ts';

/**
 * What went wrong when talking to a provider, in terms the bot can act on.
 *
 * - `credentials`: the provider rejected the api id / key / signature (401, or "Invalid request").
 * - `insufficient_balance`: 402 on a reseller purchase.
 * - `ip_blocked`: 403; the server's public IP must be whitelisted at the provider.
 * - `not_found`: 404 or a "not found" answer.
 * - `validation`: 422 with per-field messages in `fieldErrors`.
 * - `rejected`: any other 4xx (or `status:'error'`) with the provider's own message.
 * - `unknown_outcome`: timeout, network error or 5xx. For a create this means the transaction
 *   may or may not exist: keep it Pending and reconcile, never show it as failed.
 * - `malformed`: the body was not JSON, or JSON that breaks the documented schema.
 */
export type ProviderErrorKind =
  'credentials' | 'insufficient_balance' | 'ip_blocked' | 'not_found' | 'validation' | 'rejected' | 'unknown_outcome' | 'malformed';

export interface ProviderErrorInit {
  kind: ProviderErrorKind;
  endpoint: string;
  /** The provider's own message, when it sent one. Never contains a secret we sent. */
  providerMessage?: string;
  httpStatus?: number;
  /** Per-field validation messages (game shop 422). */
  fieldErrors?: Record<string, string[]>;
  cause?: unknown;
}

const explanations: Record<ProviderErrorKind, string> = {
  credentials: 'the provider rejected the credentials; reconnect them with /connect',
  insufficient_balance: 'the provider balance is too low; top up the deposit and try again',
  ip_blocked: "the provider blocks this server's IP address; whitelist it in the provider's API settings",
  not_found: 'the provider does not know this resource',
  validation: 'the provider rejected some fields',
  rejected: 'the provider rejected the request',
  unknown_outcome: 'no answer from the provider (timeout, network error or server error); the outcome is unknown',
  malformed: 'the provider answered with a body that does not match its documented format',
};

/** Base class of the per-service errors. `kind` is what callers switch on. */
export class ProviderError extends Error {
  readonly service: ServiceName;
  readonly kind: ProviderErrorKind;
  readonly endpoint: string;
  readonly providerMessage: string | undefined;
  readonly httpStatus: number | undefined;
  readonly fieldErrors: Record<string, string[]> | undefined;

  constructor(service: ServiceName, init: ProviderErrorInit) {
    const detail = init.providerMessage ? ` (provider said: ${init.providerMessage})` : '';
    const status = init.httpStatus ? ` [HTTP ${init.httpStatus}]` : '';
    super(`${service} ${init.endpoint}: ${explanations[init.kind]}${detail}${status}`, { cause: init.cause });
    this.name = 'ProviderError';
    this.service = service;
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.providerMessage = init.providerMessage;
    this.httpStatus = init.httpStatus;
    this.fieldErrors = init.fieldErrors;
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
