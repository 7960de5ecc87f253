/**
 * Migration 005: facts about the store itself, by key. `key_check` holds the vault's key check
 * value (see ../key-check.ts): an instance started with another ENCRYPTION_KEY is refused before
 * it reads or writes a secret.
 */
export const sql = /* sql */ `
CREATE TABLE store_meta (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);
`;
