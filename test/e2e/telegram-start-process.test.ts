/**
 * `npm start` when the Bot API cannot be reached at start-up (a real `src/main.ts` process): it
 * says so quickly (which API root, what to check), keeps retrying with a log line each time, and
 * starts normally once the Bot API answers. Timings are shortened through the environment
 * (TELEGRAM_START_TIMEOUT_MS, TELEGRAM_RETRY_MS), so no test waits the real 8 s.
 */
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBotApi, type BotApiEmulator } from '../../tools/playground/bot-api.ts';
import { startSandbox, type Sandbox } from '../../tools/sandbox/server.ts';
import { loopbackEnv } from '../helpers/app.ts';
import { spawnBot, type BotProcess } from '../helpers/bot-process.ts';
import { serveOnLoopback, until } from './fixture.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function lab(): Promise<{ sandbox: Sandbox; dataDir: string; telegram: BotApiEmulator }> {
  const sandbox = await startSandbox();
  const telegram = await startBotApi();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-tg-start-'));
  cleanup.push(async () => {
    await telegram.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { sandbox, dataDir, telegram };
}

function start(env: Record<string, string>, cwd: string): BotProcess {
  const bot = spawnBot({ LOG_LEVEL: 'info', PORT: '0', TELEGRAM_START_TIMEOUT_MS: '300', TELEGRAM_RETRY_MS: '100', ...env }, cwd);
  cleanup.push(() => bot.stop('SIGKILL'));
  return bot;
}

const retryLines = (output: string) => output.split('\n').filter((line) => line.includes('cannot reach the Telegram Bot API'));

describe('npm start with the Bot API unreachable', () => {
  it('a Bot API that never answers: says which API root it tried and what to check, then retries with a line each time', async () => {
    const { sandbox, dataDir, telegram } = await lab();
    const silent = await serveOnLoopback(createServer(() => {})); // accepts, never answers
    cleanup.push(() => silent.close());
    const bot = start({ ...loopbackEnv(telegram, sandbox, dataDir), TELEGRAM_API_ROOT: silent.url }, dataDir);

    await until(
      () => retryLines(bot.output).length >= 3,
      20_000,
      () => `no repeated "cannot reach" lines:\n${bot.output}`,
    );
    const line = retryLines(bot.output)[0]!;
    expect(line).toContain(silent.url);
    expect(line).toMatch(/TELEGRAM_API_ROOT/);
    expect(line).toMatch(/BOT_TOKEN/);
    expect(line).toMatch(/network/i);
    expect(line).toMatch(/retry/i);
    expect(bot.output).not.toContain(telegram.token.split(':')[1]!);
  }, 60_000);

  it('nothing listening at first: retries until the Bot API is there, then starts polling', async () => {
    const { sandbox, dataDir } = await lab();
    // A free port nobody listens on yet.
    const probe = await serveOnLoopback(createServer(() => {}));
    await probe.close();
    const port = Number(new URL(probe.url).port);
    const bot = start(
      {
        ...loopbackEnv(await startBotApi().then(async (t) => (await t.close(), t)), sandbox, dataDir),
        TELEGRAM_API_ROOT: probe.url,
      },
      dataDir,
    );
    await until(
      () => retryLines(bot.output).length >= 2,
      20_000,
      () => `no "cannot reach" lines:\n${bot.output}`,
    );
    const telegram = await startBotApi({ port });
    cleanup.push(() => telegram.close());
    await telegram.waitFor(() => telegram.polling && bot.output.includes('bot ready'), {
      timeoutMs: 30_000,
      message: `the bot did not start once the Bot API was there:\n${bot.output}`,
    });
  }, 60_000);

  it('a token Telegram rejects (401): stops with a message naming BOT_TOKEN instead of retrying', async () => {
    const { sandbox, dataDir, telegram } = await lab();
    const bot = start({ ...loopbackEnv(telegram, sandbox, dataDir), BOT_TOKEN: '123456789:wrong-token-for-this-emulator' }, dataDir);
    expect(await bot.exited).not.toBe(0);
    expect(bot.output).toMatch(/BOT_TOKEN/);
    expect(retryLines(bot.output)).toEqual([]);
  }, 60_000);
});
