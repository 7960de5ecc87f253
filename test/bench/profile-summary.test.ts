import { describe, expect, it } from 'vitest';
import { fileOf, selfTimes } from '../../bench/profile-summary.ts';

/** A profile of three frames: root, a grammY function and one of the bot's, sampled 4 times. */
const profile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 } },
    { id: 2, callFrame: { functionName: 'concat', url: 'file:///app/node_modules/grammy/out/composer.js', lineNumber: 56 } },
    { id: 3, callFrame: { functionName: 'readBalance', url: `file://${process.cwd()}/src/bot/features/balance.ts`, lineNumber: 16 } },
  ],
  startTime: 1_000,
  samples: [2, 3, 3, 2],
  timeDeltas: [10, 20, 30, 40],
};

describe('profile summary', () => {
  it('adds up each frame’s self time from the sample deltas', () => {
    const totals = selfTimes(profile, (frame) => frame.functionName);
    expect(Object.fromEntries(totals)).toEqual({ concat: 50, readBalance: 50 });
  });

  it('keeps only the samples inside the window (monotonic µs)', () => {
    // Samples land at 1010, 1030, 1060 and 1100.
    const totals = selfTimes(profile, (frame) => frame.functionName, 1_020, 1_060);
    expect(Object.fromEntries(totals)).toEqual({ readBalance: 50 });
  });

  it('names dependencies by package and the bot’s own files by path', () => {
    expect(fileOf('file:///app/node_modules/grammy/out/composer.js')).toBe('node_modules/grammy');
    expect(fileOf('file:///app/node_modules/@grammyjs/runner/out/runner.js')).toBe('node_modules/@grammyjs/runner');
    expect(fileOf(`file://${process.cwd()}/src/bot/features/balance.ts`)).toBe('src/bot/features/balance.ts');
    expect(fileOf('node:events')).toBe('node:events');
    expect(fileOf('')).toBe('(native or V8)');
  });
});
