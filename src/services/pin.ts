import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../store/db.ts';

/** Wrong PINs allowed before purchases are locked. */
export const maxPinAttempts = 5;
export const pinLockMs = 15 * 60_000;

const keyLength = 32;
const scryptOptions = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function derive(pin: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(pin, salt, keyLength, scryptOptions, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A PIN is 4 to 6 digits. */
export function isValidPin(text: string): boolean {
  return /^\d{4,6}$/.test(text.trim());
}

export type PinCheck = { ok: true } | { ok: false; locked: false; attemptsLeft: number } | { ok: false; locked: true; until: Date };

/** Purchase PINs: stored as salted scrypt hashes, wrong tries counted, locked after too many. */
export class PinService {
  constructor(private readonly deps: { db: Db; now: () => Date }) {}

  async hasPin(userId: number): Promise<boolean> {
    return (await this.deps.db.users.get(userId))?.pin !== undefined;
  }

  /** Sets or replaces the PIN, stored as a salted scrypt hash (never the digits). */
  async set(userId: number, pin: string): Promise<void> {
    const salt = randomBytes(16);
    const hash = await derive(pin.trim(), salt);
    await this.deps.db.users.update(userId, { pin: { hash: hash.toString('base64'), salt: salt.toString('base64'), failedAttempts: 0 } });
  }

  async remove(userId: number): Promise<void> {
    await this.deps.db.users.update(userId, { pin: undefined });
  }

  /** When purchases are locked after too many wrong PINs, until when. */
  async lockedUntil(userId: number): Promise<Date | undefined> {
    const until = (await this.deps.db.users.get(userId))?.pin?.lockedUntil;
    if (!until) return undefined;
    const date = new Date(until);
    return date.getTime() > this.deps.now().getTime() ? date : undefined;
  }

  /**
   * Checks a PIN. A wrong one counts an attempt; the fifth locks purchases for 15 minutes. A
   * right one resets the count. While locked, every try is refused without being checked.
   */
  async verify(userId: number, pin: string): Promise<PinCheck> {
    const { db, now } = this.deps;
    const stored = (await db.users.get(userId))?.pin;
    if (!stored) return { ok: true };
    const until = await this.lockedUntil(userId);
    if (until) return { ok: false, locked: true, until };
    const actual = await derive(pin.trim(), Buffer.from(stored.salt, 'base64'));
    const expected = Buffer.from(stored.hash, 'base64');
    if (actual.length === expected.length && timingSafeEqual(actual, expected)) {
      if (stored.failedAttempts > 0 || stored.lockedUntil)
        await db.users.update(userId, { pin: { ...stored, failedAttempts: 0, lockedUntil: undefined } });
      return { ok: true };
    }
    const failedAttempts = stored.failedAttempts + 1;
    if (failedAttempts >= maxPinAttempts) {
      const lockEnd = new Date(now().getTime() + pinLockMs);
      await db.users.update(userId, { pin: { ...stored, failedAttempts: 0, lockedUntil: lockEnd.toISOString() } });
      return { ok: false, locked: true, until: lockEnd };
    }
    await db.users.update(userId, { pin: { ...stored, failedAttempts } });
    return { ok: false, locked: false, attemptsLeft: maxPinAttempts - failedAttempts };
  }
}
