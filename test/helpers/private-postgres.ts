/**
 * A PostgreSQL server of a test's own, with the settings of a default installation
 * (`max_connections = 100`, 3 of them reserved for superusers): for a test about the connection
 * budget, which the machine's shared server (other tests' connections come and go on it) cannot
 * answer. Made with the installed server's own initdb and pg_ctl in a temporary directory on a
 * free port, run as the `postgres` system user when the test runs as root (initdb refuses root),
 * and removed by `stop()`. Where no server binaries are installed, `privatePostgresAvailable` says why.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/** The newest installed server's bin directory (Debian's layout), if any. */
function serverBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/** True, or why no server of a test's own can be started here. */
export function privatePostgresAvailable(): true | string {
  if (!serverBinaries()) return 'no PostgreSQL server binaries under /usr/lib/postgresql';
  if (userInfo().uid === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) return 'running as root without runuser';
  return true;
}

export interface PrivatePostgres {
  /** postgres:// URL of its `postgres` database, as the superuser `postgres` (trust on loopback). */
  url: string;
  /** Stops the server at once and removes its directory. */
  stop(): Promise<void>;
}

/** Starts a fresh server with a default installation's connection settings. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = serverBinaries();
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  const dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]) : run(path.join(bin, name), args);
  const data = path.join(dir, 'data');
  await tool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  // Only what a test server needs changed: its port, its socket directory, no fsync. The
  // connection settings stay the installation's defaults (max_connections 100, 3 reserved).
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  await tool('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
