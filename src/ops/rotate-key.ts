/**
 * `npm run rotate-key`: seals every stored secret (provider credentials, conversation states,
 * stored updates) with the key in ENCRYPTION_KEY, opening the old ones with the key(s) in
 * ENCRYPTION_KEY_PREVIOUS. Run it with the bot stopped (it takes the data directory's lock).
 * Each data file is replaced atomically, so a crash at any instant leaves every secret readable
 * with the keys given; running it again finishes the job. The key check value moves to the new
 * key last, and only when nothing was left unreadable: until then the new key alone is refused at
 * start. Refuses with DATABASE_URL set. Prints counts, never a secret.
 */
import { createKeyConfig } from '../config.ts';
import { startCommand } from './cli.ts';
import { StoreError } from '../store/errors.ts';
import { openStore } from '../store/store.ts';
import { createVault } from '../store/vault.ts';

const config = startCommand((env) => ({ ...createKeyConfig(env), databaseUrl: env.DATABASE_URL?.trim() }));

// The secrets of a fleet are in its database, not in DATA_DIR: rotating DATA_DIR there would
// change nothing that matters and report success.
if (config.databaseUrl) {
  console.error(
    'The key rotation did not run: DATABASE_URL is set, and npm run rotate-key reseals a data directory (DATA_DIR) only. ' +
      'This kiosbot cannot change the key of a PostgreSQL database: keep the ENCRYPTION_KEY the database was created with ' +
      'on every instance (an instance with another key is refused at start). Nothing was changed.',
  );
  process.exit(1);
}

const vault = createVault({ key: config.encryptionKey, previousKeys: config.previousKeys });
try {
  const store = await openStore({ dataDir: config.dataDir, vault, allowUnreadableSecrets: true });
  const report = await store.resealSecrets().finally(() => store.close());
  const { credentials, conversations, inbox } = report.resealed;
  console.log(
    `Sealed again with the key in ENCRYPTION_KEY (key id ${vault.keyId}): ${credentials} credentials, ` +
      `${conversations} conversation states, ${inbox} stored updates.`,
  );
  if (report.unreadable.length > 0) {
    console.error(
      `${report.unreadable.length} secrets open with none of the keys given and were left as they were: ${report.unreadable.join('; ')}. ` +
        'Add the key that sealed them to ENCRYPTION_KEY_PREVIOUS (comma separated) and run `npm run rotate-key` again. ' +
        'Until then the data still needs the keys it needed before (keep ENCRYPTION_KEY_PREVIOUS), and the bot refuses to start on it.',
    );
    process.exit(2);
  }
  console.log(
    'Every stored secret now opens with ENCRYPTION_KEY alone: remove ENCRYPTION_KEY_PREVIOUS and start the bot. ' +
      'Copies of the data directory made before this run (backups, *.v<N>.bak files) still need the old key.',
  );
} catch (error) {
  if (!(error instanceof StoreError)) throw error;
  console.error(`The key rotation did not run: ${error.message}`);
  process.exit(1);
}
