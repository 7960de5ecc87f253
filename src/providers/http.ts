import { ofetch, FetchError } from 'ofetch';
import type { ProviderErrorInit } from './provider-error.ts';

/** A provider answer whose status line and body arrived; the body is parsed JSON, or `undefined` when it was not JSON. */
export interface RawAnswer {
  status: number;
  json: unknown;
  /** True when the body was not valid JSON (an empty body counts as not JSON). */
  notJson: boolean;
}

export interface HttpOptions {
  baseURL: string;
  timeoutMs: number;
  /** Pause before the n-th retry is n times this; default 300 ms. */
  retryDelayMs?: number;
}

export interface SendOptions {
  method: 'GET' | 'POST';
  /** Endpoint path relative to baseURL, e.g. `/cek-saldo`. Used in error messages. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A plain object is sent as JSON; a URLSearchParams as a form body. */
  body?: Record<string, unknown> | URLSearchParams;
  /** How many extra attempts after a timeout / network error / 5xx. Must be 0 for a purchase create. */
  retries: number;
  /** Builds the error the caller throws for an unknown outcome or malformed body. */
  fail: (init: ProviderErrorInit) => Error;
}

const defaultRetryDelayMs = 300;

/**
 * Sends one request and returns whatever status and body came back, so each client can read the
 * body shape its spec documents. Throws (through `fail`) only for what no status code explains:
 * timeout, network error, 5xx (`unknown_outcome`). Retries those when `retries > 0`.
 * Bodies that are not JSON are reported as `notJson` for the caller to classify.
 */
export async function send(http: HttpOptions, options: SendOptions): Promise<RawAnswer> {
  let attempt = 0;
  for (;;) {
    try {
      const answer = await sendOnce(http, options);
      if (answer.status >= 500) {
        throw options.fail({
          kind: 'unknown_outcome',
          endpoint: options.path,
          httpStatus: answer.status,
          providerMessage: messageOf(answer.json),
        });
      }
      return answer;
    } catch (error) {
      const unknown = isUnknownOutcome(error);
      if (!unknown || attempt >= options.retries) {
        if (unknown && !(error instanceof Error && 'kind' in error)) {
          throw options.fail({ kind: 'unknown_outcome', endpoint: options.path, cause: stripCause(error) });
        }
        throw error;
      }
      attempt += 1;
      await new Promise((resolve) => setTimeout(resolve, (http.retryDelayMs ?? defaultRetryDelayMs) * attempt));
    }
  }
}

async function sendOnce(http: HttpOptions, options: SendOptions): Promise<RawAnswer> {
  const { body } = options;
  const isForm = body instanceof URLSearchParams;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = isForm ? 'application/x-www-form-urlencoded' : 'application/json';
  const response = await ofetch.raw(options.path, {
    baseURL: http.baseURL,
    method: options.method,
    query: options.query,
    headers,
    body: body instanceof URLSearchParams ? body.toString() : body === undefined ? undefined : JSON.stringify(body),
    timeout: http.timeoutMs,
    retry: 0,
    ignoreResponseError: true,
    responseType: 'text',
  });
  const text = typeof response._data === 'string' ? response._data : '';
  let json: unknown;
  let notJson = false;
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined;
    notJson = text.length === 0;
  } catch {
    notJson = true;
  }
  return { status: response.status, json, notJson };
}

/** Timeouts, refused/reset connections and 5xx: the request may or may not have been acted on. */
function isUnknownOutcome(error: unknown): boolean {
  if (error instanceof Error && 'kind' in error) return (error as { kind: unknown }).kind === 'unknown_outcome';
  if (error instanceof FetchError) return error.response === undefined;
  return error instanceof Error;
}

/**
 * Keeps only the name and message of a transport error: ofetch errors carry the request options,
 * which hold api keys and signatures, and must never reach a log.
 */
function stripCause(error: unknown): Error {
  if (error instanceof FetchError) {
    const inner = error.cause instanceof Error ? error.cause : undefined;
    const reason = inner ? `${inner.name}: ${inner.message}` : error.name;
    return new Error(reason.replace(/\?[^\s]*/g, ''));
  }
  if (error instanceof Error) return new Error(`${error.name}: ${error.message}`.replace(/\?[^\s]*/g, ''));
  return new Error('transport error');
}

/** Reads the message field of any of the three specs' error shapes, if present and a string. */
export function messageOf(json: unknown): string | undefined {
  if (json === null || typeof json !== 'object') return undefined;
  const record = json as Record<string, unknown>;
  for (const key of ['message', 'msg', 'error']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}
