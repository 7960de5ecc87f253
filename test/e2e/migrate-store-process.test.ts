/**
 * `npm run migrate-store -- --to postgres` as a real process (the build of src/ops/migrate-store.ts)
 * against the PostgreSQL server of the store contract tests: it copies a data directory and says
 * so per table, refuses a wrong call with its usage, names an unreachable server, and never prints
 * the database password or a secret of the data.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { testEncryptionKey } from '../helpers/app.ts';
import { seedConnectedUser } from './fixture.ts';
import { builtArgs, spawnBot, type BotProcess } from '../helpers/bot-process.ts';
import { describeEngines } from '../store/contract/harness.ts';

const password = 'pw-Secret-4711';

describeEngines(
  'npm run migrate-store',
  (suite) => {
    let dir: string | undefined;
    let command: BotProcess | undefined;
    afterEach(async () => {
      await command?.stop('SIGKILL');
      command = undefined;
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** Runs the command with `args` on a data directory holding one connected user; resolves its exit code and output. */
    async function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
      dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-migrate-'));
      const dataDir = path.join(dir, 'data');
      await seedConnectedUser(dataDir, 'api-key-SECRET-1');
      command = spawnBot({ ENCRYPTION_KEY: testEncryptionKey, DATA_DIR: dataDir, ...env }, dir, [
        ...builtArgs('src/ops/migrate-store.ts'),
        ...args,
      ]);
      const code = await command.exited;
      return { code, output: command.output };
    }

    /** The suite's database URL with a password in it (trust auth ignores it; the output must not show it). */
    const withPassword = () => {
      const url = new URL(suite.databaseUrl());
      url.password = password;
      return url.toString();
    };

    it('copies the data directory, prints each table and the verification, and no password or key', async () => {
      const { code, output } = await run(['--to', 'postgres'], { DATABASE_URL: withPassword() });
      expect(output).toMatch(/Copying .*data into PostgreSQL at 127\.0\.0\.1:5432\/kiosbot_test_\w+/);
      expect(output).toContain('  users: 1 rows');
      expect(output).toContain('  credentials: 1 rows');
      expect(output).toMatch(/Verified: the row count and checksum of each of the 14 tables match/);
      expect(code).toBe(0);
      expect(output).not.toContain(password);
      expect(output).not.toContain('api-key-SECRET-1');
      expect(await suite.sql('SELECT state FROM store_import')).toEqual([{ state: 'done' }]);
    });

    it('without --to postgres: the usage, exit code 2, nothing copied', async () => {
      const { code, output } = await run(['--to', 'mysql'], { DATABASE_URL: withPassword() });
      expect(code).toBe(2);
      expect(output).toMatch(/copies into postgres only, not "mysql"[\s\S]*Usage: npm run migrate-store -- --to postgres/);
      expect(await suite.sql('SELECT count(*)::int AS n FROM users')).toEqual([{ n: 0 }]);
    });

    it('a server that does not answer: says where it tried and what to check, exit code 1, no password', async () => {
      const { code, output } = await run(['--to=postgres'], { DATABASE_URL: `postgres://kiosbot:${password}@127.0.0.1:9/kiosbot` });
      expect(code).toBe(1);
      expect(output).toContain('The store was not copied: no PostgreSQL server answered at 127.0.0.1:9/kiosbot (ECONNREFUSED)');
      expect(output).toContain('Check DATABASE_URL');
      expect(output).not.toContain(password);
    });

    it('DATABASE_URL missing or not a postgres URL: names the variable, exit code 1', async () => {
      const missing = await run(['--to', 'postgres'], {});
      expect(missing.code).toBe(1);
      expect(missing.output).toMatch(/DATABASE_URL.*required/);
      const wrong = await run(['--to', 'postgres'], { DATABASE_URL: `mysql://root:${password}@db/kiosbot` });
      expect(wrong.code).toBe(1);
      expect(wrong.output).toMatch(/DATABASE_URL.*must be a postgres:\/\/ URL/);
      expect(wrong.output).not.toContain(password);
    });
  },
  ['postgres'],
);
