/**
 * The store an app instance runs on, opened: the engine (PostgreSQL or the data directory's
 * lowdb store) and, on PostgreSQL, how the instance spends its connection budget and reports
 * lost connections.
 */
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { openStore, type StoreOptions } from './store/store.ts';
import type { DataDirectory } from './jobs/backups.ts';
import { createLowdbEngine } from './store/lowdb-engine.ts';
import type { PgEngineOptions } from './store/pg/engine.ts';
import { connectionBudget } from './store/pg/budget.ts';
import type { StoreEngine } from './store/contract.ts';
import type { Vault } from './store/vault.ts';
import type { Db } from './store/db.ts';
import { createClaimHolder, singleProcessClaims, type ClaimHolder, type ClaimTokens } from './store/claim-holder.ts';
import { createThreadClaimHolder } from './store/pg/heartbeat-thread.ts';
import { createUpdateClaims, type UpdateClaims } from './server/update-inbox.ts';

/**
 * The store engine of this process: PostgreSQL with DATABASE_URL (a fleet's shared database),
 * else the data directory's lowdb store. Everything goes through the engine (the store contract);
 * only the data directory's files, which PostgreSQL does not have, are reached by the
 * `dataDirectory` port (backups of the files, and tests of what reaches the disk).
 */
export async function openEngine(
  config: Config,
  parts: { vault: Vault; now: () => Date; instanceId: string; logger: Logger; storeWriteFile: StoreOptions['writeFile'] },
): Promise<{ engine: StoreEngine; dataDirectory: DataDirectory | undefined }> {
  const { vault, now, instanceId, logger } = parts;
  if (config.databaseUrl) {
    // Loaded only here: a bot on the data directory never loads `pg`.
    const { openPgEngine } = await import('./store/pg/engine.ts');
    const engine = await openPgEngine({
      connectionString: config.databaseUrl,
      now,
      vault,
      ...pgConnectionSettings(config, instanceId, logger),
    });
    return { engine, dataDirectory: undefined };
  }
  const store = await openStore({
    dataDir: config.dataDir,
    vault,
    now,
    writeFile: parts.storeWriteFile,
    acceptMissingData: config.acceptMissingData,
  });
  if (store.migratedFrom !== undefined) logger.info('data file upgraded', { from: store.migratedFrom });
  if (store.lostData.length > 0) {
    logger.error('started WITHOUT missing data (ACCEPT_MISSING_DATA=true): what it held is lost; remove the variable now', {
      lost: store.lostData,
    });
  }
  const dataDirectory: DataDirectory = {
    dataDir: store.dataDir,
    flush: () => store.flush(),
    holdWrites: (task) => store.holdWrites(task),
  };
  return { engine: createLowdbEngine(store, now), dataDirectory };
}

/**
 * How this instance connects to PostgreSQL: DATABASE_POOL_SIZE connections at most, shared between
 * queries and chat locks; each named after the instance in pg_stat_activity (application_name), so
 * an operator can count them; lost connections and lost chat locks in the log (the first loss at
 * once, then at most one line per 10 s with the count).
 */
function pgConnectionSettings(config: Config, instanceId: string, logger: Logger): Partial<PgEngineOptions> {
  const budget = connectionBudget(config.databasePoolSize);
  let reportedAt = -Infinity;
  let unreported = 0;
  return {
    max: budget.queries,
    chatLockConnections: budget.chatLocks,
    applicationName: `kiosbot ${instanceId}`,
    onIdleError: (error) => logger.warn('a database connection was closed by the server; the next query opens another', { error }),
    onConnectionLost(error) {
      unreported += 1;
      if (Date.now() - reportedAt < 10_000) return;
      logger.warn('the database connection was lost or could not be opened; reads and unfinished transactions are tried again', {
        error,
        losses: unreported,
      });
      reportedAt = Date.now();
      unreported = 0;
    },
    onLockLost: (chatId, error) =>
      logger.error('a chat lock went with its database connection while its work ran; another instance may take the chat now', {
        chatId,
        error,
      }),
  };
}

/**
 * This process's claims. Every claim of a fleet instance (stored updates, due checks, outbox items)
 * is its own while it lives: renewed by one heartbeat, started here. One process owning a data
 * directory: its claims are its own for good, nothing renews them (`claimTokens` always hold).
 */
export function processClaims(
  config: Config,
  parts: { instanceId: string; db: Db; logger: Logger },
  /** The app's options: an injected clock (`now`) keeps the heartbeat on this thread, as does `heartbeatThread: false`. */
  options: { now?: () => Date; heartbeatThread?: boolean } = {},
): { claims: ClaimHolder; claimTokens: ClaimTokens; updateClaims: UpdateClaims } {
  const { instanceId, db, logger } = parts;
  const onProblem = (message: string, fields: Record<string, unknown>) => logger.warn(message, fields);
  // On a thread of its own (pg/heartbeat-thread.ts says why) where the instance runs on the real
  // clock; a test's injected clock keeps it on this thread, where the leases use that clock.
  const claims =
    config.databaseUrl && options.now === undefined && options.heartbeatThread !== false
      ? createThreadClaimHolder({
          ...config.claims,
          instanceId,
          connection: { connectionString: config.databaseUrl, application_name: `kiosbot ${instanceId}` },
          onProblem,
          fallback: (epoch) =>
            createClaimHolder({ ...config.claims, instanceId, epoch, renew: (lease) => db.renewLeases(lease), onProblem }),
        })
      : createClaimHolder({ ...config.claims, instanceId, renew: (lease) => db.renewLeases(lease), onProblem });
  if (config.databaseUrl) claims.start();
  const claimTokens = config.databaseUrl ? claims : singleProcessClaims(instanceId, config.claims);
  const updateClaims = createUpdateClaims(claims, { track: config.databaseUrl !== undefined });
  return { claims, claimTokens, updateClaims };
}
