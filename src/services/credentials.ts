import { z } from 'zod';
import type { Db } from '../store/db.ts';
import { withoutFormatChars } from '../text/format.ts';
import type { ServiceName } from '../domain.ts';
import { providerAccountKey, type AccountRef, type Providers, type ServiceCredentials } from '../providers/factory.ts';
import type { Logger } from '../logger.ts';

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
   * every call with stored credentials goes through here. Made once per stored record and kept
   * while the store holds that record: a reconnect, a key rotation or a disconnect, here or by
   * another instance, is seen at the next call.
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

/** A user's stored credentials of one service as last opened (`createCredentialService`'s `current`). */
interface Opened {
  /** The sealed text and label of the record they were opened from. */
  sealed: string;
  label: string | undefined;
  credentials: ServiceCredentials[ServiceName];
  /** Worked out at the first `accountKey`, made at the first `client`. */
  accountKey?: string;
  client?: unknown;
}

/**
 * At most this many users' services kept opened, each about 5 kB with its client (so at most some
 * 25 MB); beyond it all are forgotten, and opened again at their next use.
 */
const openedLimit = 5_000;

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

  const opened = new Map<string, Opened>();
  const openedKey = (userId: number, service: ServiceName) => `${userId}:${service}`;

  /**
   * The user's credentials of `service`, from one read of the stored record: opened (and what is
   * made from them, made) again only when that record is not the one last opened, which a
   * reconnect, a key rotation's reseal and a change by another instance all make (each seals
   * anew); forgotten when the record is gone. Every call reads the record, so what is used is
   * never older than that read; only the decryption and the client are kept.
   */
  async function current(userId: number, service: ServiceName): Promise<Opened | undefined> {
    const key = openedKey(userId, service);
    const record = await db.credentials.sealed(userId, service);
    const kept = opened.get(key);
    if (record && kept && kept.sealed === record.sealed && kept.label === record.label) return kept;
    opened.delete(key);
    if (!record) return undefined;
    const parsed = credentialSchemas[service].safeParse(db.credentials.open(userId, record));
    if (!parsed.success) return undefined;
    // Bounded without keeping order: the users in use come back at their next call.
    if (opened.size >= openedLimit) opened.clear();
    const entry: Opened = { sealed: record.sealed, label: record.label, credentials: parsed.data };
    opened.set(key, entry);
    return entry;
  }

  /** The client of an opened account, made for it (see `client`); every balance read of a reseller account is recorded. */
  function clientOf(userId: number, service: ServiceName, entry: Opened): unknown {
    const account: AccountRef = { userId };
    if (service === 'marketplace') return providers.marketplace(entry.credentials, account);
    if (service === 'gameshop') return providers.gameshop(entry.credentials, account);
    const reseller = providers.reseller(entry.credentials as ServiceCredentials['reseller'], account);
    const label = entry.label ?? '-';
    const recording: ReturnType<Providers['reseller']> = {
      ...reseller,
      balance: async () => {
        const balance = await reseller.balance();
        // Not waited for: /saldo (or the buy flow) answers while balances.json is written.
        void seen(userId, label, balance);
        return balance;
      },
    };
    return recording;
  }

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
      // The next use opens what was just saved (it would anyway: the record is sealed anew).
      opened.delete(openedKey(userId, service));
      if (balance !== undefined) await seen(userId, label, balance);
      return label;
    },
    async load(userId, service) {
      const entry = await current(userId, service);
      // A copy: the kept one stays as it was opened.
      return entry ? ({ ...entry.credentials } as ServiceCredentials[typeof service]) : undefined;
    },
    async client(userId, service) {
      const entry = await current(userId, service);
      if (!entry) return undefined;
      entry.client ??= clientOf(userId, service, entry);
      return entry.client as ReturnType<Providers[typeof service]>;
    },
    has: (userId, service) => db.credentials.has(userId, service),
    async accountKey(userId, service) {
      const entry = await current(userId, service);
      if (!entry) return undefined;
      entry.accountKey ??= providerAccountKey(service, entry.credentials);
      return entry.accountKey;
    },
    remove: async (userId, service) => {
      await db.credentials.remove(userId, service);
      opened.delete(openedKey(userId, service));
    },
    connected: (userId) => db.credentials.listServices(userId),
  };
  return api;
}
