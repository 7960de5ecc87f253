/**
 * `npm run backup [-- <file>]`: writes a consistent snapshot of DATA_DIR (also while the bot runs)
 * to `<file>`, or to `BACKUP_DIR/kiosbot-<time>.json.gz`. Secrets stay sealed as in the data files,
 * so the backup is as safe to store as the data directory and needs the same ENCRYPTION_KEY.
 */
import path from 'node:path';
import { createDataConfig } from '../config.ts';
import { startCommand } from './cli.ts';
import { backupFileName, writeBackup } from '../store/backup.ts';
import { StoreError } from '../store/errors.ts';

const config = startCommand(createDataConfig);

const file = process.argv[2] ?? path.join(config.backupDir, backupFileName(new Date()));
try {
  const backup = await writeBackup(config.dataDir, file);
  const history = backup.files.filter((entry) => entry.name.startsWith('history/')).length;
  console.log(
    `Backup written: ${file} (${backup.files.length} files, ${history} months of history). Restore it with: npm run restore -- ${file}`,
  );
} catch (error) {
  if (!(error instanceof StoreError) && !(error instanceof Error && 'code' in error)) throw error;
  console.error(`No backup was written: ${error.message}`);
  process.exit(1);
}
