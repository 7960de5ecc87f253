/**
 * Preloaded into the demo's bot (`node --import`): when the demo that started the bot is gone
 * without stopping it (killed outright), the bot stops as on SIGTERM (its graceful shutdown) and
 * then removes the demo's temporary run directory it runs in, which holds the temporary data.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';

const parent = process.ppid;
const runDir = process.cwd();
// Only a directory the demo made for this run (see demo.ts), never one it was pointed at.
const ownRunDir = path.dirname(runDir) === path.resolve(tmpdir()) && path.basename(runDir).startsWith('kiosbot-demo-');

// Its output goes to the demo: once the demo is gone, a log line must not crash the shutdown.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

const timer = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(timer);
  if (ownRunDir) process.once('exit', () => rmSync(runDir, { recursive: true, force: true }));
  process.kill(process.pid, 'SIGTERM');
}, 250);
timer.unref();
