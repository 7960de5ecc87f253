/** Helpers of the pacing tests. */

/** The most of `times` within any window of `windowMs` (how many messages Telegram saw in its busiest second). */
export function mostInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= windowMs) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}
