/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, a `.cpuprofile` file): the functions that spent
 * the most self time, the same time by file (or package), and the time by the innermost function
 * of the bot's own code on the stack (which part of the bot caused it), so a benchmark run says
 * where its time went without opening DevTools.
 *
 * Run: npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25] [--from µs] [--to µs]
 *
 * `--from`/`--to` keep only the samples taken between two instants of the monotonic clock in
 * microseconds (what `process.hrtime.bigint() / 1000n` prints, the clock V8 stamps samples with):
 * `BENCH_DEBUG=1 npx tsx bench/updates.ts` prints the burst's window in that form, so the profile
 * of a whole run (start-up, seeding, warm-up) can be narrowed to the burst alone.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The parts of the `.cpuprofile` format (Chrome DevTools protocol `Profiler.Profile`) read here. */
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Self time in microseconds per key, for the samples between `from` and `to` (µs, monotonic clock). */
export function selfTimes(profile: CpuProfile, keyOf: (frame: CallFrame) => string, from = -Infinity, to = Infinity): Map<string, number> {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  return totalsBy(profile, from, to, (id) => {
    const frame = frames.get(id);
    return frame ? keyOf(frame) : undefined;
  });
}

/** Microseconds per key of the samples between `from` and `to` (µs, monotonic clock); `keyOf` undefined skips a sample. */
function totalsBy(profile: CpuProfile, from: number, to: number, keyOf: (nodeId: number) => string | undefined): Map<string, number> {
  const totals = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    const key = keyOf(id);
    if (key !== undefined) totals.set(key, (totals.get(key) ?? 0) + delta);
  });
  return totals;
}

/**
 * Time by the innermost function of the bot's own code (`src/`) on each sample's stack: what part
 * of the bot caused the time, wherever it was spent below (node-fetch, fs, crypto). Samples with no
 * `src/` frame are keyed by their self frame's file or package; GC, idle and program by name.
 */
export function timesBySrcCaller(profile: CpuProfile, from = -Infinity, to = Infinity): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const keyOfSample = (id: number): string => {
    const self = byId.get(id)?.callFrame;
    if (!self) return '(unknown)';
    if (self.url === '' && self.functionName.startsWith('(')) return self.functionName;
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame && locationOf(frame.url).startsWith('src/')) return functionOf(frame);
    }
    return `below no src/ frame: ${fileOf(self.url)}`;
  };
  const keys = new Map<number, string>();
  return totalsBy(profile, from, to, (id) => {
    let key = keys.get(id);
    if (key === undefined) keys.set(id, (key = keyOfSample(id)));
    return key;
  });
}

/** Where a script is: `node:…` built-ins, the path inside `node_modules` for dependencies, the path below the working directory otherwise. */
function locationOf(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  if (file.startsWith('node:')) return file;
  const inModules = /.*node_modules\/(.*)$/.exec(file);
  return inModules ? `node_modules/${inModules[1]}` : path.relative(process.cwd(), file);
}

/** `node_modules/<package>` for dependencies, the script's location otherwise. */
export function fileOf(url: string): string {
  if (url === '') return '(native or V8)';
  const location = locationOf(url);
  return /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(location)?.[0] ?? location;
}

function functionOf(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return name;
  return `${name} ${locationOf(frame.url)}:${frame.lineNumber + 1}`;
}

function table(title: string, totals: Map<string, number>, top: number): string {
  const all = [...totals.values()].reduce((sum, us) => sum + us, 0);
  const rows = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = rows.map(([key, us]) => `${(us / 1000).toFixed(1).padStart(9)} ms ${((us / all) * 100).toFixed(1).padStart(5)}%  ${key}`);
  return [`${title} (of ${(all / 1000).toFixed(0)} ms sampled)`, ...lines].join('\n');
}

const isMain = process.argv[1] !== undefined && import.meta.url === `file://${path.resolve(process.argv[1])}`;
if (isMain) {
  const args = process.argv.slice(2);
  const option = (name: string): number | undefined => {
    const at = args.indexOf(name);
    return at >= 0 ? Number(args[at + 1]) : undefined;
  };
  const file = args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--'));
  if (!file) {
    console.error('Usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25] [--from µs] [--to µs]');
    process.exit(2);
  }
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const top = option('--top') ?? 25;
  const from = option('--from');
  const to = option('--to');
  console.log(table('self time by function', selfTimes(profile, functionOf, from, to), top));
  console.log();
  console.log(
    table(
      'self time by file or package',
      selfTimes(profile, (frame) => fileOf(frame.url), from, to),
      top,
    ),
  );
  console.log();
  console.log(table('time by the innermost src/ function on the stack', timesBySrcCaller(profile, from, to), top));
}
