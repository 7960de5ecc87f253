/**
 * The end-to-end fixture: sandbox providers, the emulated Bot API and an empty data directory,
 * and the bot as `npm start` runs it in a child process. Everything is torn down after the test:
 * the process is killed (SIGKILL), the servers closed, the directory removed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { test } from 'vitest';
import { startBotApi, type BotApiEmulator, type EmulatedUser } from '../../tools/playground/bot-api.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { openStore } from '../../src/store/store.ts';
import { createVault } from '../../src/store/vault.ts';
import { startSandbox, type Sandbox } from '../../tools/sandbox/server.ts';
import { loopbackEnv, testEncryptionKey } from '../helpers/app.ts';
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

/**
 * Listens on a free loopback port and tracks the server's sockets, so `close()` ends at once even
 * with a request left hanging on purpose (a front that swallows or delays calls).
 */
export async function serveOnLoopback(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes one user (Budi, id 1) with a reseller account whose key is `apiKey` into `dataDir`, as
 * /start and /connect would have: two writes of their shard file, so it has a `.bak` too.
 */
export async function seedConnectedUser(dataDir: string, apiKey: string): Promise<void> {
  const store = await openStore({ dataDir, vault: createVault({ key: Buffer.from(testEncryptionKey, 'base64') }) });
  try {
    await store.users.upsert({ id: 1, firstName: 'Budi' });
    await store.credentials.save(1, 'reseller', { apiId: 'RS-1', apiKey });
  } finally {
    await store.close();
  }
}

/**
 * Writes users (and, with `reseller`, the demo reseller account connected for each) into
 * `dataDir` before the bot process starts, as /start and /connect would have.
 */
export async function seedUsers(dataDir: string, users: readonly EmulatedUser[], options: { reseller?: boolean } = {}): Promise<void> {
  const store = await openStore({ dataDir, vault: createVault({ key: Buffer.from(testEncryptionKey, 'base64') }) });
  try {
    for (const user of users) {
      await store.users.upsert({ id: user.id, firstName: user.user.first_name });
      if (options.reseller) {
        const { apiId, apiKey } = resellerDemoAccounts.main;
        await store.credentials.save(user.id, 'reseller', { apiId, apiKey }, 'DEMO');
      }
    }
  } finally {
    await store.close();
  }
}
