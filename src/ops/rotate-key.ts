/**
 * `npm run rotate-key`: seals every stored secret (provider credentials, conversation states,
 * stored updates) with the key in ENCRYPTION_KEY, opening the old ones with the key(s) in
 * ENCRYPTION_KEY_PREVIOUS. Run it with the bot stopped (it takes the data directory's lock).
 * Each data file is replaced atomically, so a crash at any instant leaves every secret readable
 * with the keys given; running it again finishes the job. Prints counts, never a secret.
 */
import { createKeyConfig } from '../config.ts';
import { startCommand } from './cli.ts';
import { StoreError } from '../store/errors.ts';
import { openStore } from '../store/store.ts';
import { createVault } from '../store/vault.ts';

const config = startCommand(createKeyConfig);

const vault = createVault({ key: config.encryptionKey, previousKeys: config.previousKeys });
try {
  const store = await openStore({ dataDir: config.dataDir, vault });
  const report = await store.resealSecrets().finally(() => store.close());
  const { credentials, conversations, inbox } = report.resealed;
  console.log(
    `Sealed again with the key in ENCRYPTION_KEY (key id ${vault.keyId}): ${credentials} credentials, ` +
      `${conversations} conversation states, ${inbox} stored updates.`,
  );
  if (report.unreadable.length > 0) {
    console.error(
      `${report.unreadable.length} secrets open with none of the keys given and were left as they were: ${report.unreadable.join('; ')}. ` +
        'Add the key that sealed them to ENCRYPTION_KEY_PREVIOUS (comma separated) and run `npm run rotate-key` again; ' +
        'without it, the users concerned must connect their accounts again.',
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
