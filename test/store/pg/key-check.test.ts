/**
 * The key check of a fleet on PostgreSQL: every instance must seal with the key the database's
 * key check value was sealed with, and open every stored secret; an instance that would seal with
 * another key (the new one of a rotation this kiosbot cannot do on a database), or that lacks a
 * key some secret needs, is refused at start and the instances already running are unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealCredential } from '../../../src/store/records/credentials.ts';
import { StoreError } from '../../../src/store/errors.ts';
import { openPgEngine } from '../../../src/store/pg/engine.ts';
import { createVault, keyIdOf, type Vault } from '../../../src/store/vault.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../helpers/pg-database.ts';

const available = await postgresAvailable();

const oldKey = Buffer.alloc(32, 21);
const newKey = Buffer.alloc(32, 22);
const strangerKey = Buffer.alloc(32, 23);
const at = new Date('2026-11-20T08:00:00Z');

describe.skipIf(available !== true)('the key check on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  const open = (vault: Vault) => openPgEngine({ connectionString: database.url, vault, now: () => at, max: 2, chatLockConnections: 1 });

  async function refusal(vault: Vault): Promise<StoreError> {
    const error = await open(vault).then(
      async (engine) => {
        await engine.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    if (error instanceof StoreError) return error;
    throw new Error(`expected the engine to refuse the keys, got ${String(error)}`);
  }

  const storedKeyCheckId = async () =>
    (await database.sql<{ id: string }>(`SELECT value->>'keyId' AS id FROM store_meta WHERE key = 'key_check'`))[0]?.id;

  it('refuses an instance that would seal with another key than the fleet, and leaves the fleet able to read everything', async () => {
    await database.empty();
    const oldOnly = createVault({ key: oldKey });
    const running = await open(oldOnly);
    await running.credentials.saveSealed(42, sealCredential(oldOnly, 42, 'reseller', { apiId: 'RS-1', apiKey: 'secret-key-1' }, { at }));

    // The new key with the old one as previous: it opens everything, but what it sealed the old-key instances could not read.
    const error = await refusal(createVault({ key: newKey, previousKeys: [oldKey] }));
    expect(error.code).toBe('key');
    expect(error.message).toContain('ENCRYPTION_KEY');
    expect(error.message).not.toContain(newKey.toString('base64'));
    expect(await storedKeyCheckId()).toBe(keyIdOf(oldKey));
    expect((await refusal(createVault({ key: newKey }))).code).toBe('key');

    // The old-key fleet still starts and reads its secrets.
    const another = await open(oldOnly);
    expect((await another.credentials.sealed(42, 'reseller'))?.sealed.startsWith(`v1.${keyIdOf(oldKey)}.`)).toBe(true);
    await another.close();
    await running.close();
  });

  it('refuses an instance whose keys do not open every stored secret, naming their owners', async () => {
    await database.empty();
    const oldOnly = createVault({ key: oldKey });
    const engine = await open(oldOnly);
    const stray = sealCredential(createVault({ key: strangerKey }), 42, 'gameshop', { apiKey: 'secret-key-2' }, { at });
    await engine.credentials.saveSealed(42, stray);
    await engine.conversations.writeSealed('7:7', createVault({ key: strangerKey }).encrypt('{}', 'conversation:7:7'));
    await engine.close();

    const error = await refusal(oldOnly);
    expect(error.code).toBe('key');
    expect(error.message).toContain('the gameshop credentials of user 42');
    expect(error.message).toContain('the conversation state 7:7');
    expect(error.message).not.toContain('secret-key-2');
  });
});
