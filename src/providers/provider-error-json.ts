/**
 * A provider error as plain JSON, and back: the one pair every value that crosses
 * `conversation.external()` (stored as JSON in the conversation state and replayed) goes through,
 * instead of a copy per conversation.
 *
 * Use it either by returning `providerErrorToJson(error)` inside a result object, or by letting a
 * task throw and passing `providerErrorExternal` to `conversation.external({ task, ...providerErrorExternal })`.
 */
import type { ServiceName } from '../domain.ts';
import { ProviderError, isProviderError, type ProviderErrorKind } from './provider-error.ts';
import { GameshopError, type GameshopRejectReason } from './gameshop/client.ts';

/** What a provider error says, as JSON: enough to explain it to the user again after a replay. */
export interface ProviderErrorJson {
  service: ServiceName;
  kind: ProviderErrorKind;
  endpoint: string;
  providerMessage?: string;
  httpStatus?: number;
  fieldErrors?: Record<string, string[]>;
  /** Game shop refusals that the order flow can fix (another product, another promo code). */
  reason?: GameshopRejectReason;
}

/** The JSON form of a provider error (the cause, which may hold anything, is left out). */
export function providerErrorToJson(error: ProviderError): ProviderErrorJson {
  const json: ProviderErrorJson = { service: error.service, kind: error.kind, endpoint: error.endpoint };
  if (error.providerMessage !== undefined) json.providerMessage = error.providerMessage;
  if (error.httpStatus !== undefined) json.httpStatus = error.httpStatus;
  if (error.fieldErrors !== undefined) json.fieldErrors = error.fieldErrors;
  if (error instanceof GameshopError && error.reason !== undefined) json.reason = error.reason;
  return json;
}

/** The provider error a `providerErrorToJson` value describes (a `GameshopError` for the game shop). */
export function providerErrorFromJson(json: ProviderErrorJson): ProviderError {
  const { service, ...init } = json;
  return service === 'gameshop' ? new GameshopError(init) : new ProviderError(service, init);
}

/** How a thrown value is stored: a provider error as its JSON, anything else as its message. */
type StoredError = { providerError: ProviderErrorJson } | { message: string };

/**
 * Options for `conversation.external({ task, ...providerErrorExternal })`: a provider error the
 * task throws is stored as JSON and thrown again, as the same kind of error, on every replay.
 */
export const providerErrorExternal = {
  beforeStoreError(error: unknown): StoredError {
    if (isProviderError(error)) return { providerError: providerErrorToJson(error) };
    return { message: error instanceof Error ? error.message : String(error) };
  },
  afterLoadError(stored: unknown): unknown {
    const value = stored as Partial<{ providerError: ProviderErrorJson; message: string }> | null;
    if (value?.providerError) return providerErrorFromJson(value.providerError);
    return new Error(value?.message ?? 'an external step failed');
  },
};
