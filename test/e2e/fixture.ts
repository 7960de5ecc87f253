/**
 * The end-to-end fixture: sandbox providers, the emulated Bot API and an empty data directory,
 * and the bot as `npm start` runs it in a child process. Everything is torn down after the test:
 * the process is killed (SIGKILL), the servers closed, the directory removed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'vitest';
import { startBotApi, type BotApiEmulator } from '../../tools/playground/bot-api.ts';
import { startSandbox, type Sandbox } from '../../tools/sandbox/server.ts';
import { loopbackEnv } from '../helpers/app.ts';
import { spawnBot, type BotProcess } from '../helpers/bot-process.ts';

export interface ProcessLab {
  sandbox: Sandbox;
  telegram: BotApiEmulator;
  dataDir: string;
  /**
   * Starts the bot pointed at the emulator and the sandbox, with `env` on top (PORT 0 and
   * LOG_LEVEL info unless given), and resolves once it polls Telegram. Replaces a running one's
   * handle (kill the previous one first when restarting).
   */
  start(env?: Record<string, string>): Promise<BotProcess>;
  /** The last process started. */
  readonly bot: BotProcess | undefined;
  /** Closes the emulator now (Telegram unreachable); teardown then leaves it alone. */
  closeTelegram(): Promise<void>;
}

/** Polls `predicate` (for conditions the emulator's waitFor does not see change). */
export async function until(predicate: () => boolean, timeoutMs: number, message: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const processTest = test.extend<{ lab: ProcessLab }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
  lab: async ({}, use) => {
    const sandbox = await startSandbox();
    const telegram = await startBotApi();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-e2e-process-'));
    let bot: BotProcess | undefined;
    let telegramOpen = true;
    await use({
      sandbox,
      telegram,
      dataDir,
      get bot() {
        return bot;
      },
      async start(env = {}) {
        const running = spawnBot({ ...loopbackEnv(telegram, sandbox, dataDir), LOG_LEVEL: 'info', PORT: '0', ...env }, dataDir);
        bot = running;
        await telegram.waitFor(() => telegram.polling && running.output.includes('bot ready'), {
          timeoutMs: 30_000,
          message: `the bot did not start polling:\n${running.output}`,
        });
        return running;
      },
      async closeTelegram() {
        telegramOpen = false;
        await telegram.close();
      },
    });
    await bot?.stop('SIGKILL');
    if (telegramOpen) await telegram.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  },
});
