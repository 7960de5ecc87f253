/**
 * `npm run backup` and `npm run restore` as an operator runs them (real processes), and what
 * `npm start` says when a data file is unreadable or missing: the latest backup and the command to restore it.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.ts';
import { createVault, parseEncryptionKey } from '../../src/store/vault.ts';
import { testEncryptionKey } from '../helpers/app.ts';
import { runToEnd } from '../helpers/bot-process.ts';

async function finished(entry: string, env: Record<string, string>, cwd: string, args: string[] = []) {
  const result = await runToEnd(entry, env, cwd, args);
  expect(result.output).not.toContain(testEncryptionKey);
  return result;
}

/** What `npm start` needs besides the data variables; nothing listens there (it stops before it calls out). */
const botEnv = {
  BOT_TOKEN: '123456789:backup-test-token-not-a-secret',
  TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
  RESELLER_API_URL: 'http://127.0.0.1:9/reseller/api/v1',
  MARKETPLACE_API_URL: 'http://127.0.0.1:9/marketplace',
  GAMESHOP_API_URL: 'http://127.0.0.1:9/gameshop/api',
  PORT: '0',
};

describe('npm run backup / restore', () => {
  let dir: string;
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('backs up, names the backup when the data file is unreadable at start, and restores it', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-backup-'));
    const dataDir = path.join(dir, 'data');
    const backupDir = path.join(dir, 'backups');
    const vault = createVault({ key: parseEncryptionKey(testEncryptionKey) });
    const store = await openStore({ dataDir, vault });
    await store.credentials.save(1, 'reseller', { apiId: 'RS-1', apiKey: 'secret-key-1' });
    await store.close();
    const env = { DATA_DIR: dataDir, BACKUP_DIR: backupDir, ENCRYPTION_KEY: testEncryptionKey };

    const made = await finished('src/ops/backup.ts', env, dir);
    expect(made.code).toBe(0);
    const [name] = readdirSync(backupDir);
    const file = path.join(backupDir, name ?? '');
    expect(made.output).toContain(`npm run restore -- ${file}`);

    writeFileSync(path.join(dataDir, 'kiosbot.json'), '{"version": 3, "users": ');
    const start = await finished('src/main.ts', { ...env, ...botEnv }, dir);
    expect(start.code).not.toBe(0);
    expect(start.output).toContain(`npm run restore -- ${file}`);

    const restored = await finished('src/ops/restore.ts', env, dir, [file]);
    expect(restored.code).toBe(0);
    expect(restored.output).toContain('Restored');
    const reopened = await openStore({ dataDir, vault });
    expect(reopened.credentials.load(1, 'reseller')).toEqual({ apiId: 'RS-1', apiKey: 'secret-key-1' });
    await reopened.close();
  });

  it('refuses to start with kiosbot.json and its .bak gone beside the users, naming the latest backup and ACCEPT_MISSING_DATA', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-backup-'));
    const dataDir = path.join(dir, 'data');
    const backupDir = path.join(dir, 'backups');
    const store = await openStore({ dataDir, vault: createVault({ key: parseEncryptionKey(testEncryptionKey) }) });
    await store.credentials.save(1, 'reseller', { apiId: 'RS-1', apiKey: 'secret-key-1' });
    await store.close();
    const env = { DATA_DIR: dataDir, BACKUP_DIR: backupDir, ENCRYPTION_KEY: testEncryptionKey };
    expect((await finished('src/ops/backup.ts', env, dir)).code).toBe(0);
    const [name] = readdirSync(backupDir);
    rmSync(path.join(dataDir, 'kiosbot.json'));
    rmSync(path.join(dataDir, 'kiosbot.json.bak'), { force: true });

    const start = await finished('src/main.ts', { ...env, ...botEnv }, dir);
    expect(start.code).not.toBe(0);
    expect(start.output).toContain('kiosbot.json is missing');
    expect(start.output).toContain('ACCEPT_MISSING_DATA=true');
    expect(start.output).toContain(`npm run restore -- ${path.join(backupDir, name ?? '')}`);
    expect(existsSync(path.join(dataDir, 'kiosbot.json'))).toBe(false);
  });
});
