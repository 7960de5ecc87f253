/**
 * The machine a benchmark ran on, as one JSON line: CPU model and count, Node's version, and a
 * fixed integer loop's time per iteration. Figures of different runs (and sessions, on machines of
 * the same name but not the same speed) compare only beside this line: a machine twice as slow on
 * the loop handles about half the updates per second, whatever the bot does.
 *
 * Run: npx tsx bench/host.ts (`npm run bench` prints it first; bench:updates prints it too).
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';

/** Nanoseconds per iteration of a dependent multiply-add loop (best of three, so a stray pause does not count). */
export function loopNsPerIteration(iterations = 50_000_000): number {
  let best = Infinity;
  let sink = 0;
  for (let round = 0; round < 3; round++) {
    const started = process.hrtime.bigint();
    let x = round;
    for (let i = 0; i < iterations; i++) x = (x * 31 + i) | 0;
    sink ^= x;
    best = Math.min(best, Number(process.hrtime.bigint() - started) / iterations);
  }
  // Keeps the loop's result alive, so it is not optimised away.
  if (sink === 0.5) console.log(sink);
  return Math.round(best * 100) / 100;
}

export function hostFigure(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    bench: 'host',
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpus: cpus.length,
    node: process.version,
    loopNsPerIteration: loopNsPerIteration(),
    what: 'information: the speed of this machine; figures of two runs compare only when this line does',
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(JSON.stringify(hostFigure()));
