/**
 * What services, jobs and the bot use: either engine's contract with the vault on top. Secrets are
 * sealed and opened here, above the engine, so no file or table ever holds a plain key.
 */
import type { ServiceName } from '../domain.ts';
import type { Update } from 'grammy/types';
import type { ClaimOptions, ConversationStore, CredentialStore, InboxStore, Lease, StoreEngine } from './contract.ts';
import { inboxAad, sealUpdate } from './records/updates.ts';
import { openConversation, sealConversation } from './records/conversations.ts';
import { openCredential, sealCredential, type CredentialInfo, type CredentialRecord } from './records/credentials.ts';
import type { Vault } from './vault.ts';

/** A user's credentials per service: sealed by the engine's side, opened here. */
export interface CredentialsDb extends CredentialStore {
  /** Seals and stores `secret` (replacing any earlier one); `label` is non-secret display text. */
  save(userId: number, service: ServiceName, secret: Record<string, string>, label?: string): Promise<void>;
  /** The opened secret fields, or undefined if not connected. Rejects with VaultError if they cannot be opened. */
  load(userId: number, service: ServiceName): Promise<Record<string, string> | undefined>;
  /** The opened secret fields of a record `sealed` returned for this user. Throws VaultError if they cannot be opened. */
  open(userId: number, record: CredentialRecord): Record<string, string>;
  has(userId: number, service: ServiceName): Promise<boolean>;
  /** Label and connection time, without the secret. */
  info(userId: number, service: ServiceName): Promise<CredentialInfo | undefined>;
}

/** Conversation states, sealed by key (AAD `conversation:<key>`). */
export interface ConversationsDb extends ConversationStore {
  /** The stored value; undefined if there is none or it cannot be opened (the user starts over). */
  read(key: string): Promise<unknown>;
  /** Seals and stores `value` (JSON); `undefined` deletes. */
  write(key: string, value: unknown): Promise<void>;
}

/** Stored Telegram updates, sealed here (a message may hold a PIN or an API key). */
export interface InboxDb extends InboxStore {
  /** Seals and stores the updates not held yet; resolves the ids that were new (see `add`). */
  addUpdates(updates: readonly Update[], options?: { lease?: Lease }): Promise<number[]>;
  /** `claimForReplay`, opened; one that cannot be opened (key retired, altered) is marked done and named in `givenUp`. */
  claimUpdatesForReplay(options: ClaimOptions & { maxAttempts: number }): Promise<{ updates: Update[]; givenUp: number[] }>;
}

/** The store as the application sees it: one engine's repositories, secrets opened with the vault. */
export interface Db extends Omit<StoreEngine, 'credentials' | 'conversations' | 'inbox'> {
  credentials: CredentialsDb;
  conversations: ConversationsDb;
  inbox: InboxDb;
}

export function createDb(engine: StoreEngine, vault: Vault, now: () => Date = () => new Date()): Db {
  const { credentials, conversations, inbox } = engine;
  return {
    ...engine,
    credentials: {
      ...credentials,
      save: (userId, service, secret, label) =>
        credentials.saveSealed(userId, sealCredential(vault, userId, service, secret, { label, at: now() })),
      async load(userId, service) {
        const record = await credentials.sealed(userId, service);
        return record ? openCredential(vault, userId, record) : undefined;
      },
      open: (userId, record) => openCredential(vault, userId, record),
      has: async (userId, service) => (await credentials.sealed(userId, service)) !== undefined,
      async info(userId, service) {
        const record = await credentials.sealed(userId, service);
        if (!record) return undefined;
        return { service: record.service, connectedAt: record.connectedAt, ...(record.label === undefined ? {} : { label: record.label }) };
      },
    },
    conversations: {
      ...conversations,
      read: async (key) => openConversation(vault, key, await conversations.readSealed(key)),
      write: (key, value) => conversations.writeSealed(key, sealConversation(vault, key, value)),
    },
    inbox: {
      ...inbox,
      addUpdates: (updates, options) =>
        inbox.add(
          updates.map((update) => sealUpdate(vault, update)),
          options,
        ),
      async claimUpdatesForReplay(options) {
        const claimed = await inbox.claimForReplay(options);
        const updates: Update[] = [];
        const givenUp = [...claimed.givenUp];
        for (const { id, sealed } of claimed.updates) {
          let update: Update;
          try {
            update = JSON.parse(vault.decrypt(sealed, inboxAad(id))) as Update;
          } catch {
            givenUp.push(id);
            await inbox.markDone(id);
            continue;
          }
          updates.push(update);
        }
        return { updates, givenUp };
      },
    },
  };
}
