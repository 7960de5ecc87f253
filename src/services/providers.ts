/**
 * What the bot may know of the providers, re-exported here so that bot/ imports providers only
 * through services (DESIGN.md: `bot` uses `services`; `services` use `providers`). It is the
 * vocabulary of the screens, not a way around the services: the domain types a screen shows, the
 * pure helpers that read them, the client and credential types the credential service hands out,
 * and provider errors (recognised, turned into JSON for `conversation.external` and back).
 */
export { isProductAvailable, type Product } from '../providers/reseller/schemas.ts';
export { supportStateOf, type Account, type Item } from '../providers/marketplace/schemas.ts';
export { normaliseWhatsapp, type Game } from '../providers/gameshop/schemas.ts';
export type { MarketplaceClient } from '../providers/marketplace/client.ts';
export type { Providers, ServiceCredentials } from '../providers/factory.ts';
export { isProviderError, type ProviderError, type ProviderErrorKind } from '../providers/provider-error.ts';
export { providerErrorFromJson, providerErrorToJson, type ProviderErrorJson } from '../providers/provider-error-json.ts';
