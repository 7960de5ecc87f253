import { z } from 'zod';
import type { Db } from '../store/db.ts';
import { withoutFormatChars } from '../text/format.ts';
import type { ServiceName } from '../domain.ts';
import { providerAccountKey, type AccountRef, type Providers, type ServiceCredentials } from '../providers/factory.ts';
import type { Logger } from '../logger.ts';
import { boundedCache } from './memo.ts';

const credentialSchemas = {
  reseller: z.object({ apiId: z.string().min(1), apiKey: z.string().min(1) }),
  marketplace: z.object({ apiKey: z.string().min(1) }),
  gameshop: z.object({ apiKey: z.string().min(1) }),
} satisfies { [S in ServiceName]: z.ZodType<ServiceCredentials[S]> };

/** A display label that identifies an account without revealing a secret, e.g. `DEMO…LER`. */
export function maskIdentifier(value: string): string {
  const text = value.trim();
  if (text.length <= 6) return `${text.slice(0, 1)}…`;
  return `${text.slice(0, 4)}…${text.slice(-3)}`;
}

/** The credentials use case: each user's provider accounts, checked, stored encrypted and turned into clients. */
export interface CredentialService {
  /**
   * Checks credentials with one real call (balance / account details / games), and only when the
   * provider accepts them stores them encrypted. Throws the provider's error otherwise; nothing
   * is stored then. Returns the display label stored beside them.
   */
  verifyAndSave<S extends ServiceName>(userId: number, service: S, credentials: ServiceCredentials[S]): Promise<string>;
  /** The user's decrypted credentials for a service, or undefined when not connected. */
  load<S extends ServiceName>(userId: number, service: S): Promise<ServiceCredentials[S] | undefined>;
  /**
   * A provider client for the user's stored account of `service`, or undefined when not
   * connected. Made for the account, so a 401/403 it meets is reported (see ProviderHooks):
   * every call with stored credentials goes through here.
   */
  client<S extends ServiceName>(userId: number, service: S): Promise<ReturnType<Providers[S]> | undefined>;
  has(userId: number, service: ServiceName): Promise<boolean>;
  /**
   * A digest naming the provider account behind the user's stored credentials of `service`: the
   * same for every user of that account, no secret readable from it; undefined when not
   * connected. Worked out once per stored credentials (not a decryption per call).
   */
  accountKey(userId: number, service: ServiceName): Promise<string | undefined>;
  remove(userId: number, service: ServiceName): Promise<void>;
  connected(userId: number): Promise<ServiceName[]>;
}

export function createCredentialService(db: Db, providers: Providers, logger: Pick<Logger, 'warn'>): CredentialService {
  const trim = <T extends Record<string, string>>(value: T): T =>
    Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutFormatChars(v).trim()])) as T;

  /**
   * Records a balance the bot saw (changes only, see store/balances.ts); resolves once it is on
   * disk. A failed write is logged, never fails the read.
   */
  const seen = (userId: number, account: string, balance: number): Promise<void> =>
    db.balances.record(userId, account, balance).then(
      () => undefined,
      (error: unknown) => logger.warn('balance not recorded', { userId, error }),
    );

  /** Account keys by the sealed credentials they were worked out from (a new save seals anew). */
  const accountKeys = boundedCache<string, Promise<string | undefined>>(20_000);

  const api: CredentialService = {
    async verifyAndSave(userId, service, raw) {
      const credentials = trim(raw);
      let label: string;
      let balance: number | undefined;
      if (service === 'reseller') {
        const c = credentials as ServiceCredentials['reseller'];
        balance = await providers.reseller(c).balance();
        label = maskIdentifier(c.apiId);
      } else if (service === 'marketplace') {
        const account = await providers.marketplace(credentials).accountDetails();
        label = account.username;
      } else {
        const { games } = await providers.gameshop(credentials).games();
        // No part of a key is ever kept in plain text; the label only says what the key unlocks.
        label = `${games.length} games`;
      }
      await db.credentials.save(userId, service, credentials, label);
      if (balance !== undefined) await seen(userId, label, balance);
      return label;
    },
    async load(userId, service) {
      const stored = await db.credentials.load(userId, service);
      if (!stored) return undefined;
      const parsed = credentialSchemas[service].safeParse(stored);
      return parsed.success ? (parsed.data as ServiceCredentials[typeof service]) : undefined;
    },
    async client(userId, service) {
      const credentials = await api.load(userId, service);
      if (!credentials) return undefined;
      const make = providers[service] as (
        credentials: ServiceCredentials[typeof service],
        account: AccountRef,
      ) => ReturnType<Providers[typeof service]>;
      const client = make(credentials, { userId });
      if (service !== 'reseller') return client;
      // Every balance read of a stored reseller account (/saldo, alerts, the buy flow) is recorded.
      const reseller = client as ReturnType<Providers['reseller']>;
      const account = (await db.credentials.info(userId, 'reseller'))?.label ?? '-';
      const recording: ReturnType<Providers['reseller']> = {
        ...reseller,
        balance: async () => {
          const balance = await reseller.balance();
          // Not waited for: /saldo (or the buy flow) answers while balances.json is written.
          void seen(userId, account, balance);
          return balance;
        },
      };
      return recording as typeof client;
    },
    has: (userId, service) => db.credentials.has(userId, service),
    async accountKey(userId, service) {
      const sealed = await db.credentials.sealedOf(userId, service);
      if (sealed === undefined) return undefined;
      return accountKeys(sealed, async () => {
        const credentials = await api.load(userId, service);
        if (!credentials) return undefined;
        return providerAccountKey(service, credentials);
      });
    },
    remove: async (userId, service) => {
      await db.credentials.remove(userId, service);
    },
    connected: (userId) => db.credentials.listServices(userId),
  };
  return api;
}
