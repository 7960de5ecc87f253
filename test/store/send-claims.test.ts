/**
 * The in-process send claims behind "one sender per ref at a time": callers of one ref run one
 * after the other, in call order, and a waiter is told it waited. What every engine's send claims
 * promise (other refs never held up, a task that throws lets go) is in contract-send-claims.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createInProcessSendClaims } from '../../src/store/send-claims.ts';

/** A promise the test settles by hand. */
function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('in-process send claims', () => {
  it('runs the callers of one ref one at a time, in call order; the later ones know they waited', async () => {
    const claims = createInProcessSendClaims();
    const events: string[] = [];
    const first = deferred();
    const a = claims.withClaim('REF1', async ({ waited }) => {
      events.push(`a start waited=${waited}`);
      await first.promise;
      events.push('a end');
      return 'a';
    });
    const b = claims.withClaim('REF1', ({ waited }) => {
      events.push(`b start waited=${waited}`);
      return Promise.resolve('b');
    });
    const c = claims.withClaim('REF1', ({ waited }) => {
      events.push(`c start waited=${waited}`);
      return Promise.resolve('c');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['a start waited=false']);
    first.resolve();
    expect(await Promise.all([a, b, c])).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['a start waited=false', 'a end', 'b start waited=true', 'c start waited=true']);
    // Free again: the next caller does not wait.
    expect(await claims.withClaim('REF1', ({ waited }) => Promise.resolve(waited))).toBe(false);
  });
});
