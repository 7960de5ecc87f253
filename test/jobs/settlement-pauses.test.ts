import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.ts';
import { AccountPauses } from '../../src/jobs/settlement-pauses.ts';
import { silentLogger } from '../../src/logger.ts';

describe('AccountPauses', () => {
  it('a failed first read of the stored pause is made again at the next check, not kept as failed', async () => {
    let reads = 0;
    const db = {
      users: {
        get: () => {
          reads += 1;
          if (reads === 1) return Promise.reject(new Error('connection terminated'));
          return Promise.resolve({ id: 7, recheckPause: { since: '2026-12-01T00:00:00.000Z', reason: 'credentials' } });
        },
      },
    } as unknown as Db;
    const pauses = new AccountPauses({ db, logger: silentLogger });
    await expect(pauses.heldAtFirstCheck(7)).rejects.toThrow('connection terminated');
    // The database is back: the next check reads the record and finds the account paused.
    await expect(pauses.heldAtFirstCheck(7)).resolves.toBe(true);
    await expect(pauses.heldAtFirstCheck(7)).resolves.toBe(true);
    expect(reads).toBe(2);
  });
});
