/**
 * Keeps the demo from outliving whoever started it. `npm run demo` runs as npm → sh → tsx → node;
 * a CI runner, `timeout` or systemd signals npm alone, and npm passes SIGTERM only to the shell,
 * which ends without passing it on (SIGHUP and SIGKILL end npm outright). The demo would then run
 * on as an orphan holding its ports, so it watches the processes that launched it and stops when
 * one of them is gone.
 */
import { readFileSync } from 'node:fs';

interface ProcStat {
  state: string;
  ppid: number;
  pgid: number;
  /** Clock ticks after boot the process started: tells a reused pid from the process watched. */
  startTime: string;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp session tty_nr tpgid flags ... starttime" — comm may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]), startTime: fields[19]! };
  } catch {
    return undefined;
  }
}

/**
 * The launchers of this process: its parent, and further up each ancestor in its process group
 * (npm, the shell running the script, tsx: a terminal's foreground job, or the group of the
 * runner that started npm). An interactive shell or a terminal above the group is not one: `nohup`
 * or a closed terminal tab are theirs to decide.
 */
function launchers(): Array<{ pid: number; startTime: string }> {
  const own = procStat(process.pid);
  if (!own) return []; // no /proc (not Linux): the parent's pid is all there is to watch
  const found: Array<{ pid: number; startTime: string }> = [];
  for (let pid = own.ppid; pid > 1;) {
    const stat = procStat(pid);
    if (!stat || (found.length > 0 && stat.pgid !== own.pgid)) break;
    found.push({ pid, startTime: stat.startTime });
    pid = stat.ppid;
  }
  return found;
}

/**
 * Calls `onGone` once, when the parent or another launcher (see above) has ended, checking every
 * `intervalMs`. Returns a function that stops watching. The timer does not keep the process alive.
 */
export function watchLaunchers(onGone: () => void, intervalMs = 250): () => void {
  const parent = process.ppid;
  const watched = launchers();
  const gone = () =>
    process.ppid !== parent ||
    watched.some(({ pid, startTime }) => {
      const stat = procStat(pid);
      return !stat || stat.state === 'Z' || stat.startTime !== startTime;
    });
  const timer = setInterval(() => {
    if (!gone()) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
