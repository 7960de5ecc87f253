import type { RepoContext } from './context.ts';
import { validated } from './records/validation.ts';
import { serviceNames, serviceNameSchema, type ServiceName } from '../domain.ts';
import { credentialSchema, openCredential, sealCredential, type CredentialInfo, type CredentialRecord } from './records/credentials.ts';

/**
 * Each user's API credentials per service. The secret fields are sealed with the vault, bound to
 * the user and service (AAD `user:<id>:credentials:<service>`), so they are never on disk in plain
 * text and a sealed value copied to another user or service does not open.
 */
export interface CredentialsRepo {
  /** Seals and stores `secret` (replacing any earlier one); `label` is non-secret display text. */
  save(userId: number, service: ServiceName, secret: Record<string, string>, label?: string): Promise<void>;
  /** Stores a record `sealCredential` made (replacing any earlier one of its service). */
  saveSealed(userId: number, record: CredentialRecord): Promise<void>;
  /** The stored record, secret still sealed, or undefined if not connected. */
  sealed(userId: number, service: ServiceName): CredentialRecord | undefined;
  /** The decrypted secret fields, or undefined if not connected. Throws VaultError if they cannot be opened. */
  load(userId: number, service: ServiceName): Record<string, string> | undefined;
  has(userId: number, service: ServiceName): boolean;
  /** Label and connection time, without the secret. */
  info(userId: number, service: ServiceName): CredentialInfo | undefined;
  /** Forgets the credentials; resolves true if there were any. */
  remove(userId: number, service: ServiceName): Promise<boolean>;
  /** Services the user has connected. */
  listServices(userId: number): ServiceName[];
  /** How many accounts are connected per service (every service named, 0 if none). */
  countByService(): Record<ServiceName, number>;
}

export function createCredentialsRepo({ shards, vault, now }: RepoContext): CredentialsRepo {
  /** The user's shard's credentials. */
  const of = (userId: number) => shards.forUser(userId).data.credentials;
  const keyOf = (userId: number, service: ServiceName) => `${userId}:${validated(serviceNameSchema, service, 'service')}`;
  const saveSealed = async (userId: number, input: CredentialRecord) => {
    const record = validated(credentialSchema, input, 'credential');
    const key = keyOf(userId, record.service);
    await shards.forUser(userId).update((data) => {
      data.credentials[key] = record;
    });
  };

  return {
    save: async (userId, service, secret, label) =>
      saveSealed(userId, sealCredential(vault, userId, service, secret, { label, at: now() })),
    saveSealed,
    sealed(userId, service) {
      const record = of(userId)[keyOf(userId, service)];
      return record ? { ...record } : undefined;
    },
    load(userId, service) {
      const record = of(userId)[keyOf(userId, service)];
      return record ? openCredential(vault, userId, record) : undefined;
    },
    has: (userId, service) => of(userId)[keyOf(userId, service)] !== undefined,
    info(userId, service) {
      const record = of(userId)[keyOf(userId, service)];
      if (!record) return undefined;
      return { service: record.service, connectedAt: record.connectedAt, ...(record.label === undefined ? {} : { label: record.label }) };
    },
    async remove(userId, service) {
      const key = keyOf(userId, service);
      if (!of(userId)[key]) return false;
      await shards.forUser(userId).update((data) => {
        delete data.credentials[key];
      });
      return true;
    },
    listServices(userId) {
      const prefix = `${userId}:`;
      return Object.entries(of(userId))
        .filter(([key]) => key.startsWith(prefix))
        .map(([, record]) => record.service);
    },
    countByService() {
      const counts = Object.fromEntries(serviceNames.map((service) => [service, 0])) as Record<ServiceName, number>;
      for (const shard of shards.all) for (const record of Object.values(shard.data.credentials)) counts[record.service]++;
      return counts;
    },
  };
}
