import { createHash } from 'node:crypto';
import { createResellerClient, type ResellerClient } from './reseller/client.ts';
import { createMarketplaceClient, type MarketplaceClient } from './marketplace/client.ts';
import { createGameshopClient, type GameshopClient } from './gameshop/client.ts';
import { isProviderError } from './provider-error.ts';
import type { ServiceName } from '../domain.ts';
import type { ProviderCall } from './http.ts';

export interface ProviderSettings {
  resellerUrl: string;
  marketplaceUrl: string;
  gameshopUrl: string;
  timeoutMs: number;
  /** Pause before the n-th retry of a provider call is n times this; default 300 ms (tests shorten it). */
  retryDelayMs?: number;
}

/** Secret fields per service, as stored (encrypted) for each user. */
export interface ServiceCredentials {
  reseller: { apiId: string; apiKey: string };
  marketplace: { apiKey: string };
  gameshop: { apiKey: string };
}

/** The stored account a client is made for; absent when checking credentials a user just typed. */
export interface AccountRef {
  userId: number;
}

/** A provider refused a stored account: its credentials (401) or the server's IP (403). */
export interface AccountProblem {
  userId: number;
  service: ServiceName;
  kind: 'credentials' | 'ip_blocked';
}

/** Builds a client for one user's credentials (the credential service keeps one per stored account, services/credentials.ts). */
export interface Providers {
  reseller(credentials: ServiceCredentials['reseller'], account?: AccountRef): ResellerClient;
  marketplace(credentials: ServiceCredentials['marketplace'], account?: AccountRef): MarketplaceClient;
  gameshop(credentials: ServiceCredentials['gameshop'], account?: AccountRef): GameshopClient;
}

export interface ProviderHooks {
  /**
   * Told each time a client made for a stored account (`account` given) fails with 401/403, from
   * whichever feature or job made the call; the error is thrown on as usual. Credentials being
   * checked before they are saved have no account and are never reported.
   */
  onAccountProblem?: (problem: AccountProblem) => void;
  /** Told of every request to a provider: service, endpoint path, HTTP status, duration (for the logs; no secrets in it). */
  onCall?: (call: ProviderCall & { service: ServiceName }) => void;
}

export function createProviders(settings: ProviderSettings, hooks: ProviderHooks = {}): Providers {
  const balanceReads = sharedReads<number>();
  const watch = <T extends object>(client: T, service: ServiceName, account: AccountRef | undefined): T =>
    account && hooks.onAccountProblem
      ? reportingAccountProblems(client, (kind) => hooks.onAccountProblem?.({ userId: account.userId, service, kind }))
      : client;
  const http = (service: ServiceName, baseURL: string) => ({
    baseURL,
    timeoutMs: settings.timeoutMs,
    retryDelayMs: settings.retryDelayMs,
    onCall: (call: ProviderCall) => hooks.onCall?.({ service, ...call }),
  });
  return {
    reseller: ({ apiId, apiKey }, account) => {
      const client = createResellerClient({ apiId, apiKey, ...http('reseller', settings.resellerUrl) });
      const key = providerAccountKey('reseller', { apiId, apiKey });
      return watch({ ...client, balance: () => balanceReads(key, () => client.balance()) }, 'reseller', account);
    },
    marketplace: ({ apiKey }, account) =>
      watch(createMarketplaceClient({ apiKey, ...http('marketplace', settings.marketplaceUrl) }), 'marketplace', account),
    gameshop: ({ apiKey }, account) =>
      watch(createGameshopClient({ apiKey, ...http('gameshop', settings.gameshopUrl) }), 'gameshop', account),
  };
}

/**
 * Reads under way by provider account: callers of one account asking at once (a shop's staff
 * sending /saldo together, an alert check during a /saldo) share one provider call and its answer
 * or error. Nothing is kept once the call settles: the next read asks the provider again.
 */
function sharedReads<T>(): (key: string, read: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, read) => {
    let shared = running.get(key);
    if (!shared) {
      shared = read().finally(() => running.delete(key));
      running.set(key, shared);
    }
    return shared;
  };
}

/**
 * A provider account as a map key: a digest of the service and its credentials, the same for
 * every user of that account; no secret is readable from it (nor kept by it).
 */
export function providerAccountKey(service: ServiceName, credentials: Record<string, string>): string {
  return createHash('sha256')
    .update([service, ...Object.values(credentials).map((value) => value.trim())].join('\u0000'))
    .digest('base64');
}

/** The client with every method passing 401/403 provider errors to `report` before rethrowing them. */
function reportingAccountProblems<T extends object>(client: T, report: (kind: AccountProblem['kind']) => void): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(client)) {
    if (typeof member !== 'function') {
      wrapped[name] = member;
      continue;
    }
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (member as (...a: unknown[]) => Promise<unknown>).apply(client, args);
      } catch (error) {
        if (isProviderError(error) && (error.kind === 'credentials' || error.kind === 'ip_blocked')) report(error.kind);
        throw error;
      }
    };
  }
  return wrapped as T;
}
