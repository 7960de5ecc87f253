/**
 * `npm run restore -- <file>`: puts a backup made by `npm run backup` back into DATA_DIR, after
 * checking it (format, checksums, data versions, and that ENCRYPTION_KEY opens its secrets). The
 * bot must be stopped (the data directory's lock is taken). The current data files are moved
 * aside into `DATA_DIR/before-restore-<time>-…/`, never deleted.
 */
import { createKeyConfig } from '../config.ts';
import { startCommand } from './cli.ts';
import { restoreBackup } from '../store/backup.ts';
import { StoreError } from '../store/errors.ts';
import { createVault } from '../store/vault.ts';

const file = process.argv[2];
if (!file) {
  console.error('Say which backup to restore: npm run restore -- backups/kiosbot-20261123-101500.json.gz');
  process.exit(1);
}

const config = startCommand(createKeyConfig);

try {
  const vault = createVault({ key: config.encryptionKey, previousKeys: config.previousKeys });
  const { movedTo, backup, notReplayed, unsent } = await restoreBackup(file, config.dataDir, vault);
  console.log(
    `Restored ${backup.files.length} files from ${file} (made ${backup.createdAt}) into ${config.dataDir}.` +
      (movedTo ? ` The files it replaced are in ${movedTo}.` : '') +
      ' Start the bot: purchases that were Pending in the backup are checked again with their providers (same ref id).' +
      (notReplayed > 0 ? ` ${notReplayed} update(s) the backup held unhandled (taps, messages) will not be replayed.` : '') +
      (unsent > 0
        ? ` ${unsent} purchase(s) confirmed but not yet sent in the backup will not be sent: the bot marks them unresolved and tells their owners to check with the provider.`
        : ''),
  );
} catch (error) {
  if (!(error instanceof StoreError)) throw error;
  console.error(`Nothing was restored: ${error.message}`);
  process.exit(1);
}
