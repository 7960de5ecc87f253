/**
 * What the real process (`src/main.ts`, as `npm start` runs it) prints when Telegram becomes
 * unreachable: the polling errors are reported, and the bot token appears nowhere in the output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBotApi, type BotApiEmulator } from '../../tools/playground/bot-api.ts';
import { startSandbox, type Sandbox } from '../../tools/sandbox/server.ts';
import { loopbackEnv, testEncryptionKey } from '../helpers/app.ts';
import { spawnBot, type BotProcess } from '../helpers/bot-process.ts';

/** Polls `predicate` until it holds (the emulator's own waitFor ends when it is closed). */
async function until(predicate: () => boolean, timeoutMs: number, message: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('process output never contains the bot token', () => {
  let sandbox: Sandbox;
  let telegram: BotApiEmulator;
  let telegramClosed: boolean;
  let dataDir: string;
  let bot: BotProcess | undefined;

  beforeEach(async () => {
    sandbox = await startSandbox();
    telegram = await startBotApi();
    telegramClosed = false;
    dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-output-'));
    bot = undefined;
  });
  afterEach(async () => {
    await bot?.stop('SIGKILL');
    if (!telegramClosed) await telegram.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('Telegram unreachable while polling: the errors are printed, the token (and its secret part) is not', async () => {
    const token = telegram.token;
    const secretPart = token.slice(token.indexOf(':') + 1);
    expect(secretPart.length).toBeGreaterThanOrEqual(20);
    bot = spawnBot({ ...loopbackEnv(telegram, sandbox, dataDir), LOG_LEVEL: 'info', PORT: '0' }, dataDir);
    const running = bot;
    await telegram.waitFor(() => telegram.polling && running.output.includes('long polling'), {
      timeoutMs: 30_000,
      message: `the bot did not start polling:\n${running.output}`,
    });

    // Telegram goes away: every getUpdates now fails to connect.
    const before = running.output.length;
    await telegram.close();
    telegramClosed = true;
    const after = () => running.output.slice(before);
    await until(
      () => after().split('\n').filter((line) => /updates/i.test(line) && /error|fail/i.test(line)).length >= 2,
      30_000,
      () => `the bot never reported the polling errors:\n${after()}`,
    );

    const output = running.output;
    expect(output).not.toContain(token);
    expect(output).not.toContain(secretPart);
    expect(output).not.toContain(encodeURIComponent(token));
    expect(output).not.toContain(testEncryptionKey);
  }, 90_000);
});
