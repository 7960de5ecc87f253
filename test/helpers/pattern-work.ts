/** What a function asks of regular expressions, for tests that bound the work of reading user text. */
import { vi } from 'vitest';

/**
 * Runs `task` and returns the length of the longest text any single-match pattern (neither
 * global nor sticky: `exec`, `test`, `match` without /g) was run over meanwhile. A pattern that
 * may backtrack costs up to the square of its input or more, so the readers of user text keep
 * each such input short; the global passes of `replace` and `split` are linear and not counted.
 */
export function longestPatternInput(task: () => unknown): number {
  let longest = 0;
  const original: (this: RegExp, input: string) => RegExpExecArray | null = RegExp.prototype.exec; // eslint-disable-line @typescript-eslint/unbound-method -- called with its own `this` below
  const spy = vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, input: string) {
    if (!this.global && !this.sticky) longest = Math.max(longest, String(input).length);
    return original.call(this, input);
  });
  try {
    task();
  } finally {
    spy.mockRestore();
  }
  return longest;
}
