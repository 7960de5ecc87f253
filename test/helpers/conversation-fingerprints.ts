/**
 * The rule of the recorded conversation fingerprints (test/bot/conversation-fingerprints.json),
 * path by path: a recorded path whose steps changed is a change of its flow (it needs a
 * conversationsVersion bump), a path with no fingerprint yet is only new coverage (recording it
 * needs no bump, since the flow's code did not change for it).
 */

/** Per flow, the steps of its scripted paths, each path opened by a `path <name>` entry. */
export type FlowShapes = Partial<Record<string, string[]>>;

const pathMarker = 'path ';

/** A flow's steps split by path, in order: path name → the steps after its marker. */
export function stepsByPath(steps: string[]): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  let current: string[] = [];
  for (const step of steps) {
    if (step.startsWith(pathMarker)) {
      current = [];
      paths.set(step.slice(pathMarker.length), current);
    } else current.push(step);
  }
  return paths;
}

/** The first step where two recordings of one path differ, numbered from 1. */
function firstDifference(recorded: string[], now: string[]): string {
  const found = recorded.findIndex((step, i) => step !== now[i]);
  const at = found === -1 ? recorded.length : found;
  return `step ${at + 1}: recorded "${recorded[at] ?? '(none)'}", now "${now[at] ?? '(none)'}"`;
}

/** Each recorded path whose steps differ now, described (a path not recorded yet is no change). */
export function changedPaths(recorded: FlowShapes, now: FlowShapes): string[] {
  return Object.entries(now).flatMap(([flow, steps]) => {
    const before = stepsByPath(recorded[flow] ?? []);
    return [...stepsByPath(steps ?? [])].flatMap(([name, current]) => {
      const old = before.get(name);
      if (old === undefined || JSON.stringify(old) === JSON.stringify(current)) return [];
      return [`flow "${flow}" changed its steps on path "${name}" (first difference at ${firstDifference(old, current)})`];
    });
  });
}

/** The paths driven now that have no recorded fingerprint, as `flow/path`. */
export function unrecordedPaths(recorded: FlowShapes, now: FlowShapes): string[] {
  return Object.entries(now).flatMap(([flow, steps]) => {
    const before = stepsByPath(recorded[flow] ?? []);
    return [...stepsByPath(steps ?? []).keys()].filter((name) => !before.has(name)).map((name) => `${flow}/${name}`);
  });
}
