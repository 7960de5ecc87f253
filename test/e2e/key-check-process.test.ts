/**
 * `npm start` with the wrong ENCRYPTION_KEY (a real `src/main.ts` process): it stops at start-up
 * with a message naming the variable, exits non-zero, never prints a key, and leaves the data
 * files byte-identical.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testEncryptionKey } from '../helpers/app.ts';
import { seedConnectedUser } from './fixture.ts';
import { spawnBot, type BotProcess } from '../helpers/bot-process.ts';

const wrongEncryptionKey = Buffer.alloc(32, 99).toString('base64');

describe('npm start with the wrong ENCRYPTION_KEY', () => {
  let dir: string;
  let bot: BotProcess | undefined;
  afterEach(async () => {
    await bot?.stop('SIGKILL');
    bot = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('stops with a message saying what to do, exit code non-zero, no key printed, data files unchanged', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-key-'));
    const dataDir = path.join(dir, 'data');
    // Data made with the right key: a connected user, their shard written twice so there is a .bak.
    await seedConnectedUser(dataDir, 'secret-key-1');
    const hash = (name: string) =>
      createHash('sha256')
        .update(readFileSync(path.join(dataDir, name)))
        .digest('hex');
    const files = ['kiosbot.json', 'users/001.json', 'users/001.json.bak'];
    const before = files.map(hash);

    bot = spawnBot(
      {
        BOT_TOKEN: '123456789:key-check-test-token-not-a-secret',
        // Nothing listens there: the store check must stop start-up before any network call.
        TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
        RESELLER_API_URL: 'http://127.0.0.1:9/reseller/api/v1',
        MARKETPLACE_API_URL: 'http://127.0.0.1:9/marketplace',
        GAMESHOP_API_URL: 'http://127.0.0.1:9/gameshop/api',
        ENCRYPTION_KEY: wrongEncryptionKey,
        DATA_DIR: dataDir,
        PORT: '0',
      },
      dir,
    );
    // Generous: the child compiles TypeScript on a loaded machine.
    const code = await Promise.race([bot.exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000))]);
    expect(code).not.toBe('timeout');
    expect(code).not.toBe(0);
    expect(bot.output).toContain('ENCRYPTION_KEY');
    expect(bot.output).toMatch(/has not changed/);
    for (const key of [testEncryptionKey, wrongEncryptionKey]) {
      expect(bot.output).not.toContain(key);
      expect(bot.output).not.toContain(Buffer.from(key, 'base64').toString('hex'));
    }
    expect(files.map(hash)).toEqual(before);
  }, 90_000);
});
