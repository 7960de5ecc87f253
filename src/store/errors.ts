/** Why a store operation failed, for callers that branch on it. */
export type StoreErrorCode =
  | 'corrupt'
  | 'version'
  | 'locked'
  | 'closed'
  | 'duplicate'
  | 'invalid'
  | 'key'
  | 'incomplete'
  /** A piece of the data directory is gone while the rest is there. */
  | 'missing'
  /** PostgreSQL: the database could not be reached for a while; nothing was done. */
  | 'unavailable'
  /** PostgreSQL: the connection went away after a change was sent; whether it was stored is not known. */
  | 'outcome-unknown'
  /** PostgreSQL: the connection holding a chat lock went away, and the lock with it. */
  | 'lock-lost'
  /** A wallet ledger's rules refuse the append (records/ledger.ts LedgerRefusedError). */
  | 'refused';

/** Base class of every error the store throws on purpose. Messages never contain secrets. */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** A data file could not be read (not JSON, not the schema's shape); kiosbot never writes to it. */
export class StoreCorruptError extends StoreError {
  constructor(
    readonly file: string,
    readonly reason: string,
    advice: string,
  ) {
    super('corrupt', `Data file ${file} is unreadable: ${reason}. kiosbot has not changed it. ${advice}`);
    this.name = 'StoreCorruptError';
  }
}

/** A data file was written by a newer kiosbot than this one. */
export class StoreVersionError extends StoreError {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      'version',
      `Data file ${file} has data version ${found}, but this kiosbot only understands up to version ${supported}: ` +
        'it was written by a newer kiosbot. Run that newer version (or newer), or restore a backup made by this version. ' +
        'kiosbot has not changed the file.',
    );
    this.name = 'StoreVersionError';
  }
}

/** Another live process owns the data directory. */
export class StoreLockedError extends StoreError {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
    dataDir: string,
  ) {
    super(
      'locked',
      `Another kiosbot process (pid ${pid}) is using the data directory ${dataDir} (lock file ${lockFile}). ` +
        'Stop that process first; only one kiosbot may use a data directory at a time. ' +
        'If you are sure no kiosbot is running, delete the lock file and start again.',
    );
    this.name = 'StoreLockedError';
  }
}

/** ENCRYPTION_KEY does not open the data: start-up stops before anything is sealed with the wrong key. */
export class StoreKeyError extends StoreError {
  /** `advice`: what to do, where the data directory's (set the key back, or finish the rotation) does not apply. */
  constructor(
    readonly file: string,
    reason: string,
    advice?: string,
  ) {
    super(
      'key',
      `ENCRYPTION_KEY is not the key the data in ${file} was encrypted with: ${reason}. kiosbot has not changed anything. ` +
        (advice ??
          'Set ENCRYPTION_KEY back to the key this data was created with, then start kiosbot again ' +
            '(while rotating keys: the new key in ENCRYPTION_KEY and the old one in ENCRYPTION_KEY_PREVIOUS, until `npm run rotate-key` ' +
            'has sealed everything with the new key and says so).') +
        ' Without that key the stored provider credentials cannot be read; do not delete the data to get past this: it also holds the open purchases.',
    );
    this.name = 'StoreKeyError';
  }
}

/** A piece of the data directory is gone while the rest is there: start-up stops unless the loss is accepted (ACCEPT_MISSING_DATA=true). */
export class StoreMissingError extends StoreError {
  readonly missing: string;
  constructor(dataDir: string, details: { missing: string; found: string; loses: string }) {
    super(
      'missing',
      `The data directory ${dataDir} is incomplete: ${details.missing} ${details.missing.includes(', ') ? 'are' : 'is'} missing, though ${details.found} is there. ` +
        `Starting without it would lose ${details.loses}. kiosbot has not changed anything. ` +
        'Put it back (from a copy of the data directory, or restore a backup), or, to start anyway and lose that for good, ' +
        'start once with ACCEPT_MISSING_DATA=true (then remove it).',
    );
    this.name = 'StoreMissingError';
    this.missing = details.missing;
  }
}

/**
 * A data file that exists but cannot be read (permission denied, a directory in its place, an I/O
 * error): what to tell the operator, who must not be pointed at moving a merely unreadable file away.
 */
export function unreadableFileError(file: string, error: unknown): StoreCorruptError {
  const code = typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : 'error';
  const advice =
    code === 'EACCES' || code === 'EPERM'
      ? 'Give the user kiosbot runs as read and write permission on it again (chown/chmod), then start kiosbot again.'
      : code === 'EISDIR'
        ? 'Something else is at its place: move that away and put the file back from your backups, then start kiosbot again.'
        : 'Check the disk (dmesg, smartctl); put the file back from your backups (onto a healthy disk if it is failing), then start kiosbot again.';
  return new StoreCorruptError(file, `it cannot be read (${code})`, advice);
}

/** What an operator is told about a write that failed on the data directory's file system. */
interface WriteFailure {
  /** ENOSPC, EROFS, EACCES ... */
  code: string;
  path?: string;
  problem: string;
  advice: string;
}

/** Errno codes that mean the data directory cannot take writes (as opposed to a bug or the network). */
const writeFailures: Record<string, { problem: string; advice: string }> = {
  ENOSPC: {
    problem: 'the disk holding the data directory is full',
    advice: 'free space on that disk (kiosbot goes on by itself once writes work again)',
  },
  EDQUOT: {
    problem: 'the disk quota of the user kiosbot runs as is used up on the data directory',
    advice: 'raise the quota or free space (kiosbot goes on by itself once writes work again)',
  },
  EROFS: {
    problem: 'the data directory is on a read-only file system',
    advice: 'remount it read-write (check the mount, or the disk for errors: the kernel remounts a failing disk read-only)',
  },
  EACCES: {
    problem: 'the data directory is not writable by the user kiosbot runs as (permission denied)',
    advice: 'give that user write permission on the data directory and its files again (chown/chmod)',
  },
  EPERM: {
    problem: 'the data directory is not writable by the user kiosbot runs as (operation not permitted)',
    advice: 'give that user write permission on the data directory and its files again (chown/chmod, chattr -i)',
  },
  EIO: {
    problem: 'the disk holding the data directory reported an I/O error',
    advice: 'check the disk (dmesg, smartctl); restore from a backup onto a healthy disk if it is failing',
  },
};

/** The data directory problem behind `error` (a write the file system refused), logged instead of a generic failure; else undefined. */
export function writeFailureOf(error: unknown): WriteFailure | undefined {
  for (let cause = error, depth = 0; typeof cause === 'object' && cause !== null && depth < 5; depth += 1) {
    const { code, path } = cause as { code?: unknown; path?: unknown };
    const known = typeof code === 'string' ? writeFailures[code] : undefined;
    if (known && typeof code === 'string') return { code, ...(typeof path === 'string' ? { path } : {}), ...known };
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Log fields naming a write failure: `dataDirProblem` (what is wrong), `path`, `errno` and `whatToDo`. */
export function writeFailureFields(failure: WriteFailure): Record<string, string> {
  return {
    dataDirProblem: failure.problem,
    ...(failure.path ? { path: failure.path } : {}),
    errno: failure.code,
    whatToDo: failure.advice,
  };
}
