/**
 * Credentials: each user's API keys per service, sealed with the vault above the contract (AAD
 * `user:<id>:credentials:<service>`), so no engine ever sees a plain key.
 */
import { z } from 'zod';
import { serviceNameSchema, type ServiceName } from '../../domain.ts';
import { StoreError } from '../errors.ts';
import type { Vault } from '../vault.ts';
import { isoDate, validated } from './validation.ts';

export const credentialSchema = z.object({
  service: serviceNameSchema,
  /** Vault token of the JSON of the secret fields. */
  sealed: z.string().min(1),
  /** Non-secret text to show, e.g. a masked api_id. */
  label: z.string().optional(),
  connectedAt: isoDate,
});
export type CredentialRecord = z.infer<typeof credentialSchema>;

/** The non-secret part of stored credentials, for display. */
export interface CredentialInfo {
  service: ServiceName;
  label?: string;
  connectedAt: string;
}

const secretSchema = z.record(z.string(), z.string());

/** The vault AAD for a user's credentials of one service. */
export function credentialsAad(userId: number, service: ServiceName): string {
  return `user:${userId}:credentials:${service}`;
}

/** Seals `secret` for the user's `service` into a record any engine keeps as it is. */
export function sealCredential(
  vault: Vault,
  userId: number,
  service: ServiceName,
  secret: Record<string, string>,
  options: { label?: string | undefined; at: Date },
): CredentialRecord {
  validated(serviceNameSchema, service, 'service');
  const fields = validated(secretSchema, secret, 'credential');
  if (Object.keys(fields).length === 0) throw new StoreError('invalid', 'Refusing to store empty credentials.');
  return validated(
    credentialSchema,
    {
      service,
      sealed: vault.encrypt(JSON.stringify(fields), credentialsAad(userId, service)),
      ...(options.label === undefined ? {} : { label: options.label }),
      connectedAt: options.at.toISOString(),
    },
    'credential',
  );
}

/** Opens a record `sealCredential` made for this user. Throws VaultError if it cannot be opened. */
export function openCredential(vault: Vault, userId: number, record: CredentialRecord): Record<string, string> {
  const opened: unknown = JSON.parse(vault.decrypt(record.sealed, credentialsAad(userId, record.service)));
  const parsed = secretSchema.safeParse(opened);
  if (!parsed.success)
    throw new StoreError('invalid', `Stored credentials for ${record.service} of user ${userId} are not a set of text fields.`);
  return parsed.data;
}
