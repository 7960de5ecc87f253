import { describe, expect, it } from 'vitest';
import { fileOf, selfTimes, timesBySrcCaller } from '../../bench/profile-summary.ts';

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

  it('charges time spent in a dependency to the innermost function of the bot that called it', () => {
    // root > readBalance (src) > fetch (node_modules); root > GC; root > runner (node_modules).
    const nested = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4, 5] },
        {
          id: 2,
          callFrame: { functionName: 'readBalance', url: `file://${process.cwd()}/src/bot/features/balance.ts`, lineNumber: 16 },
          children: [3],
        },
        { id: 3, callFrame: { functionName: 'fetch', url: 'file:///app/node_modules/node-fetch/lib/index.js', lineNumber: 9 } },
        { id: 4, callFrame: { functionName: '(garbage collector)', url: '', lineNumber: -1 } },
        { id: 5, callFrame: { functionName: 'run', url: 'file:///app/node_modules/@grammyjs/runner/out/runner.js', lineNumber: 1 } },
      ],
      startTime: 0,
      samples: [3, 3, 2, 4, 5],
      timeDeltas: [10, 10, 5, 7, 3],
    };
    expect(Object.fromEntries(timesBySrcCaller(nested))).toEqual({
      'readBalance src/bot/features/balance.ts:17': 25,
      '(garbage collector)': 7,
      'below no src/ frame: node_modules/@grammyjs/runner': 3,
    });
  });
});
