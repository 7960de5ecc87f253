/**
 * What the bot may know of the providers, re-exported here so that bot/ imports providers only
 * through services (DESIGN.md: `bot` uses `services`; `services` use `providers`). It is the
 * vocabulary of the screens, not a way around the services: the domain types a screen shows, the
 * pure helpers that read them, the client and credential types the credential service hands out,
 * and provider errors as a typed failure (`ProviderErrorJson`), never the error classes.
 */
import { isProviderError } from '../providers/provider-error.ts';
import { providerErrorToJson, type ProviderErrorJson } from '../providers/provider-error-json.ts';

export { isProductAvailable, type Product } from '../providers/reseller/schemas.ts';
export { supportStateOf, type Account, type Item } from '../providers/marketplace/schemas.ts';
export { normaliseWhatsapp, type Game } from '../providers/gameshop/schemas.ts';
export type { MarketplaceClient } from '../providers/marketplace/client.ts';
export type { Providers, ServiceCredentials } from '../providers/factory.ts';
export type { ProviderErrorKind } from '../providers/provider-error.ts';
export type { ProviderErrorJson } from '../providers/provider-error-json.ts';

/**
 * A thrown value as the typed failure the bot explains: what a provider said (plain JSON, safe to
 * keep in a conversation's state), or undefined when it is not a provider error (a bug, which the
 * caller re-throws).
 */
export function providerFailureOf(error: unknown): ProviderErrorJson | undefined {
  return isProviderError(error) ? providerErrorToJson(error) : undefined;
}
