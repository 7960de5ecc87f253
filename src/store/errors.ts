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
  /** PostgreSQL: the database could not be reached for a while; nothing was done. */
  | 'unavailable'
  /** PostgreSQL: the connection went away after a change was sent; whether it was stored is not known. */
  | 'outcome-unknown'
  /** PostgreSQL: the connection holding a chat lock went away, and the lock with it. */
  | 'lock-lost';

/** Base class of every error the store throws on purpose. Messages never contain secrets. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}

/**
 * A data file could not be read: not JSON, or not the shape the schema expects. kiosbot never
 * writes to such a file; the operator restores the backup or moves the file away.
 */
export class StoreCorruptError extends StoreError {
  readonly file: string;
  readonly reason: string;
  constructor(file: string, reason: string, advice: string) {
    super('corrupt', `Data file ${file} is unreadable: ${reason}. kiosbot has not changed it. ${advice}`);
    this.name = 'StoreCorruptError';
    this.file = file;
    this.reason = reason;
  }
}

/** A data file was written by a newer kiosbot than this one. */
export class StoreVersionError extends StoreError {
  readonly file: string;
  readonly found: number;
  readonly supported: number;
  constructor(file: string, found: number, supported: number) {
    super(
      'version',
      `Data file ${file} has data version ${found}, but this kiosbot only understands up to version ${supported}: ` +
        'it was written by a newer kiosbot. Run that newer version (or newer), or restore a backup made by this version. ' +
        'kiosbot has not changed the file.',
    );
    this.name = 'StoreVersionError';
    this.file = file;
    this.found = found;
    this.supported = supported;
  }
}

/** Another live process owns the data directory. */
export class StoreLockedError extends StoreError {
  readonly lockFile: string;
  readonly pid: number;
  constructor(lockFile: string, pid: number, dataDir: string) {
    super(
      'locked',
      `Another kiosbot process (pid ${pid}) is using the data directory ${dataDir} (lock file ${lockFile}). ` +
        'Stop that process first; only one kiosbot may use a data directory at a time. ' +
        'If you are sure no kiosbot is running, delete the lock file and start again.',
    );
    this.name = 'StoreLockedError';
    this.lockFile = lockFile;
    this.pid = pid;
  }
}

/**
 * ENCRYPTION_KEY does not open the data: it is not the key the data was sealed with. Start-up
 * stops before anything is written, so no secret is ever sealed with the wrong key.
 */
export class StoreKeyError extends StoreError {
  readonly file: string;
  constructor(file: string, reason: string) {
    super(
      'key',
      `ENCRYPTION_KEY is not the key the data in ${file} was encrypted with: ${reason}. kiosbot has not changed anything. ` +
        'Set ENCRYPTION_KEY back to the key this data was created with, then start kiosbot again ' +
        '(while rotating keys: the new key in ENCRYPTION_KEY and the old one in ENCRYPTION_KEY_PREVIOUS). ' +
        'Without that key the stored provider credentials cannot be read; do not delete the data to get past this: it also holds the open purchases.',
    );
    this.name = 'StoreKeyError';
    this.file = file;
  }
}
