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
  /** True when our own checks refused the input and nothing was sent (`kind` is then `validation`). */
  rejectedBeforeSending?: boolean;
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
  readonly rejectedBeforeSending: boolean;

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
    this.rejectedBeforeSending = init.rejectedBeforeSending ?? false;
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}

/**
 * Replaces each secret by `***`, raw or URL-encoded (a transport error quotes the URL) and in any
 * letter case (a provider may echo a sign in upper case).
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const forms = secrets
    .filter((secret) => secret !== '')
    .flatMap((secret) => [secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)]);
  if (forms.length === 0) return (text) => text;
  const escaped = [...new Set(forms)].sort((a, b) => b.length - a.length).map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(escaped.join('|'), 'gi');
  return (text) => text.replace(pattern, '***');
}

/** The error's texts (provider message, field messages, cause) with `redact` applied: what a client throws. */
export function redactedInit<T extends ProviderErrorInit>(init: T, redact: (text: string) => string): T {
  const { providerMessage, fieldErrors, cause } = init;
  return {
    ...init,
    providerMessage: providerMessage === undefined ? undefined : redact(providerMessage),
    fieldErrors: fieldErrors && Object.fromEntries(Object.entries(fieldErrors).map(([field, messages]) => [field, messages.map(redact)])),
    cause: cause === undefined ? undefined : loggableCause(cause, redact),
  };
}

/** Causes kept below a provider error (ofetch's TypeError "fetch failed", then the socket's error). */
const causeDepth = 4;

/**
 * A copy of an error and its causes that a log may hold: at each level only the name
 * (`TimeoutError`), the code (`ECONNRESET`, `UND_ERR_SOCKET`) and the message, `redact` applied.
 * What tells a reset from a refusal or a timeout stays; anything else an error carries (ofetch's
 * holds the request options, with api keys and signatures) does not.
 */
export function loggableCause(error: unknown, redact: (text: string) => string, depth = 0): Error {
  if (!(error instanceof Error)) return new Error('transport error');
  const copy = new Error(redact(error.message));
  copy.name = error.name;
  copy.stack = `${copy.name}: ${copy.message}`;
  const code: unknown = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code: redact(code) });
  if (error.cause !== undefined && depth + 1 < causeDepth) copy.cause = loggableCause(error.cause, redact, depth + 1);
  return copy;
}
