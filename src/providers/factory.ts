import { createResellerClient, type ResellerClient } from './reseller/client.ts';
import { createMarketplaceClient, type MarketplaceClient } from './marketplace/client.ts';
import { createGameshopClient, type GameshopClient } from './gameshop/client.ts';

export interface ProviderSettings {
  resellerUrl: string;
  marketplaceUrl: string;
  gameshopUrl: string;
  timeoutMs: number;
}

/** Secret fields per service, as stored (encrypted) for each user. */
export interface ServiceCredentials {
  reseller: { apiId: string; apiKey: string };
  marketplace: { apiKey: string };
  gameshop: { apiKey: string };
}

export type ServiceName = keyof ServiceCredentials;
export const serviceNames: readonly ServiceName[] = ['reseller', 'marketplace', 'gameshop'];

/** Builds a client for one user's credentials. Clients are cheap; make one per use. */
export interface Providers {
  reseller(credentials: ServiceCredentials['reseller']): ResellerClient;
  marketplace(credentials: ServiceCredentials['marketplace']): MarketplaceClient;
  gameshop(credentials: ServiceCredentials['gameshop']): GameshopClient;
}

export function createProviders(settings: ProviderSettings): Providers {
  return {
    reseller: ({ apiId, apiKey }) =>
      createResellerClient({ baseURL: settings.resellerUrl, apiId, apiKey, timeoutMs: settings.timeoutMs }),
    marketplace: ({ apiKey }) =>
      createMarketplaceClient({ baseURL: settings.marketplaceUrl, apiKey, timeoutMs: settings.timeoutMs }),
    gameshop: ({ apiKey }) => createGameshopClient({ baseURL: settings.gameshopUrl, apiKey, timeoutMs: settings.timeoutMs }),
  };
}
