import path from 'node:path';
import type { Logger } from '../logger.ts';
import { backupFileName, pruneBackups, writeBackup } from '../store/backup.ts';

/**
 * The data directory of the embedded (lowdb) store, as a backup needs it: where its files are, and
 * a way to read them while none is being written. PostgreSQL has none (pg_dump backs it up).
 */
export interface DataDirectory {
  readonly dataDir: string;
  /** Resolves when every change made so far is on disk (rejects if a write failed). */
  flush(): Promise<void>;
  /** Runs `task` while no data file is being written (writes in flight finish first). */
  holdWrites<T>(task: () => Promise<T>): Promise<T>;
}

export interface BackupJob {
  /** Makes one backup now (after flushing the store) and prunes old ones; resolves with its file, or undefined if it failed (logged). */
  run(): Promise<string | undefined>;
}

/**
 * Scheduled backups (BACKUP_EVERY_HOURS): each run writes `kiosbot-<time>.json.gz` into `dir`
 * and keeps the newest `keep`. A failed run is logged and changes nothing; the next one tries again.
 */
export function createBackupJob(deps: {
  dataDirectory: DataDirectory | undefined;
  dir: string;
  keep: number;
  logger: Logger;
  now: () => Date;
}): BackupJob {
  return {
    async run() {
      const store = deps.dataDirectory;
      if (!store) {
        // PostgreSQL keeps the data: its own tools back it up (README "Scaling out").
        deps.logger.warn('no backup: the store is PostgreSQL (DATABASE_URL); back it up with pg_dump');
        return undefined;
      }
      const file = path.join(deps.dir, backupFileName(deps.now()));
      try {
        await store.flush();
        const backup = await store.holdWrites(() => writeBackup(store.dataDir, file, { now: deps.now }));
        const removed = await pruneBackups(deps.dir, deps.keep);
        deps.logger.info('backup written', { file, files: backup.files.length, removed: removed.length });
        return file;
      } catch (error) {
        deps.logger.warn('scheduled backup failed; the next run tries again', {
          file,
          reason: error instanceof Error ? error.message : String(error),
        });
        return undefined;
      }
    },
  };
}
