import { ofetch, FetchError } from 'ofetch';
import type { z } from 'zod';
import { loggableCause, type ProviderErrorInit, type ProviderErrorKind } from './provider-error.ts';

/** A provider answer whose status line and body arrived; the body is parsed JSON, or `undefined` when it was not JSON. */
export interface RawAnswer {
  status: number;
  json: unknown;
  /** True when the body was not valid JSON (an empty body counts as not JSON). */
  notJson: boolean;
}

/**
 * One request to a provider as it may be logged: the endpoint path only (never the query, the
 * headers or the body, which carry api keys and signs), the HTTP status (undefined when no answer
 * came: timeout, network error) and how long it took.
 */
export interface ProviderCall {
  method: 'GET' | 'POST';
  endpoint: string;
  status: number | undefined;
  durationMs: number;
  /** For a call without an answer: the kind of failure (`TimeoutError`, `TypeError` …), never its message. */
  failure?: string;
}

/** How a client reaches its provider (each client adds its credentials). */
export interface HttpOptions {
  baseURL: string;
  /** Per-request timeout, in time this process ran (see `runningTimeout`); default 15 s. */
  timeoutMs?: number;
  /** Told of every request sent (each retry too), once it is answered or has failed: for the logs. */
  onCall?: (call: ProviderCall) => void;
  /** Pause before the n-th retry is n times this; default 300 ms (tests shorten it). */
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
const defaultTimeoutMs = 15_000;

/**
 * Sends one request and returns whatever status and body came back, so each client can read the
 * body shape its spec documents. Throws (through `fail`) only for what no status code explains:
 * timeout, network error, 5xx (`unknown_outcome`). Retries those when `retries > 0`.
 * Bodies that are not JSON are reported as `notJson` for the caller to classify.
 * The retries are ours, not ofetch's: its retry reuses the first attempt's abort signal, so a
 * retry would run without a timeout (or, after a timeout, be aborted at once).
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

/**
 * An abort signal that fires once this process has *run* for `ms`: it ticks ten times over `ms`,
 * and a tick counts the time since the last one, but at most one and a half ticks. Time in which
 * the process stood still (SIGSTOP, a stalled VM, a blocked event loop) thus counts almost nothing,
 * and an answer that reached the socket meanwhile is read on waking, not taken for silence (slow
 * is not dead; a wall-clock timer fires first on waking, before the socket is read). Running, it
 * fires after `ms`, as a plain timeout would.
 */
export function runningTimeout(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const tickMs = Math.max(1, Math.floor(ms / 10));
  let counted = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    counted += Math.min(now - last, tickMs * 1.5);
    last = now;
    if (counted < ms) return;
    clearInterval(timer);
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, tickMs);
  timer.unref?.();
  return { signal: controller.signal, clear: () => clearInterval(timer) };
}

async function sendOnce(http: HttpOptions, options: SendOptions): Promise<RawAnswer> {
  const { body } = options;
  const isForm = body instanceof URLSearchParams;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = isForm ? 'application/x-www-form-urlencoded' : 'application/json';
  const started = performance.now();
  const report = (status: number | undefined, failure?: string) =>
    http.onCall?.({
      method: options.method,
      endpoint: options.path,
      status,
      durationMs: Math.round(performance.now() - started),
      ...(failure === undefined ? {} : { failure }),
    });
  let response;
  const timeout = runningTimeout(http.timeoutMs ?? defaultTimeoutMs);
  try {
    response = await ofetch.raw(options.path, {
      baseURL: http.baseURL,
      method: options.method,
      query: options.query,
      headers,
      body: body instanceof URLSearchParams ? body.toString() : body === undefined ? undefined : JSON.stringify(body),
      signal: timeout.signal,
      retry: 0,
      ignoreResponseError: true,
      responseType: 'text',
    });
  } catch (error) {
    const cause = error instanceof FetchError && error.cause instanceof Error ? error.cause : error;
    report(undefined, cause instanceof Error ? cause.name : 'error');
    throw error;
  } finally {
    timeout.clear();
  }
  report(response.status);
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
 * Keeps only the names, codes and messages of a transport error and its causes, query strings
 * cut: ofetch's own error carries the request options and quotes the URL, which hold api keys and
 * signatures, and must never reach a log; the causes below it say what failed (ECONNRESET, a timeout).
 */
function stripCause(error: unknown): Error {
  const withoutQuery = (text: string) => text.replace(/\?[^\s]*/g, '');
  if (error instanceof FetchError) return error.cause instanceof Error ? loggableCause(error.cause, withoutQuery) : new Error(error.name);
  return loggableCause(error, withoutQuery);
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

/** How one provider's spec reads an answer, where it differs from the common rules of `readSuccess`. */
export interface AnswerRules {
  /** Statuses with a meaning of their own whatever the body (the reseller's 402: insufficient balance). */
  statusKinds?: Partial<Record<number, ProviderErrorKind>>;
  /**
   * A JSON answer the provider explains on its own (the game shop's 422 with field errors): the
   * error to throw, or undefined to go on with the common rules. Called after 401/403/404.
   */
  explain?: (answer: RawAnswer, providerMessage: string | undefined) => Error | undefined;
  /** Whether a 2xx body that breaks the schema is a refusal in the provider's words rather than a broken body. */
  isRefusal: (body: Record<string, unknown>, providerMessage: string | undefined) => boolean;
}

/**
 * Turns an answer into the documented success body, or throws the matching error (through
 * `fail`). The status decides first (DESIGN.md's mapping: 401 credentials, 403 IP blocked, 404
 * not found, plus the provider's own `rules`); the body supplies the provider's message. A body
 * that is not JSON at all (an HTML error page, a proxy's text) means we are not talking to the
 * documented API, e.g. a wrong base URL: that is said rather than guessed from the status.
 * Anything else (400, 405, 409, 429, an unfollowed 3xx) is a refusal in the provider's own words.
 */
export function readSuccess<T extends z.ZodType>(
  answer: RawAnswer,
  endpoint: string,
  schema: T,
  fail: (init: ProviderErrorInit) => Error,
  rules: AnswerRules,
): z.output<T> {
  const { status, json, notJson } = answer;
  const httpStatus = status;
  const providerMessage = messageOf(json);
  const byStatus = (kind: ProviderErrorKind) => fail({ kind, endpoint, httpStatus, providerMessage });

  if (status === 401) throw byStatus('credentials');
  const own = rules.statusKinds?.[status];
  if (own !== undefined) throw byStatus(own);
  if (status === 403) throw byStatus('ip_blocked');
  if (notJson) {
    throw fail({ kind: 'malformed', endpoint, httpStatus, cause: new Error(`HTTP ${status} with a body that is not JSON`) });
  }
  if (status === 404) throw byStatus('not_found');
  const explained = rules.explain?.(answer, providerMessage);
  if (explained) throw explained;
  if (status >= 200 && status < 300) {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    if (isRecord(json) && rules.isRefusal(json, providerMessage)) throw byStatus('rejected');
    throw fail({ kind: 'malformed', endpoint, httpStatus, cause: new Error(summariseIssues(parsed.error)) });
  }
  throw byStatus('rejected');
}

/** Where a body broke the schema, without any of its values (they could be personal data). */
export function summariseIssues(error: z.ZodError): string {
  const lines = error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return `body does not match the documented schema: ${lines.join('; ')}${more}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
