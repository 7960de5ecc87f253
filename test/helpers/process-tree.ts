/**
 * The process tree below a pid, read from /proc (Linux): for tests that a tool stops every
 * process it started (no orphans).
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
  command: string;
}

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ..." — comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(fields[1]), state: fields[0]!, command };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every live descendant of `root` (children, grandchildren, ...), with its command line. */
export function descendants(root: number): ProcInfo[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((p): p is ProcInfo => p !== undefined);
  const found: ProcInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

/** Whether `pid` still runs (a zombie counts as ended). */
export function alive(pid: number): boolean {
  const info = readProc(pid);
  return info !== undefined && info.state !== 'Z';
}
