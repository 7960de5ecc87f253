/**
 * Which failures of an update's handling are temporary (the update is handled again later, the
 * user told it is being retried) and which are the bot's own bug (told once, not retried).
 */
import { describe, expect, it } from 'vitest';
import { isTemporaryFailure } from '../../src/bot/errors.ts';
import { StoreError } from '../../src/store/errors.ts';

describe('isTemporaryFailure', () => {
  it("a database that went away mid-write, could not be reached, or took a chat's lock with it is temporary, whatever the driver's error says", () => {
    // node-postgres ends a connection the server dropped with a plain Error, without a code.
    const dropped = new Error('Connection terminated unexpectedly');
    expect(isTemporaryFailure(new StoreError('outcome-unknown', 'lost mid-write', { cause: dropped }))).toBe(true);
    expect(isTemporaryFailure(new StoreError('unavailable', 'cannot be reached', { cause: dropped }))).toBe(true);
    expect(isTemporaryFailure(new StoreError('lock-lost', 'the lock went with its connection', { cause: dropped }))).toBe(true);
  });

  it('a bug or a refusal of the store is not temporary', () => {
    expect(isTemporaryFailure(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isTemporaryFailure(new StoreError('invalid', 'a record that breaks its schema'))).toBe(false);
    expect(isTemporaryFailure(new StoreError('duplicate', 'already stored'))).toBe(false);
  });
});
