/**
 * GET /health of the real process (`src/main.ts`, as `npm start` runs it): bound to loopback by
 * default, liveness only without the token, the counts with HEALTH_TOKEN as a bearer token.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBotApi, type BotApiEmulator } from '../../tools/playground/bot-api.ts';
import { startSandbox, type Sandbox } from '../../tools/sandbox/server.ts';
import { loopbackEnv } from '../helpers/app.ts';
import { spawnBot, type BotProcess } from '../helpers/bot-process.ts';

describe('GET /health of the bot process', () => {
  let sandbox: Sandbox;
  let telegram: BotApiEmulator;
  let dataDir: string;
  let bot: BotProcess | undefined;

  beforeEach(async () => {
    sandbox = await startSandbox();
    telegram = await startBotApi();
    dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-health-'));
    bot = undefined;
  });
  afterEach(async () => {
    await bot?.stop('SIGKILL');
    await telegram.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 by default; HEALTH_TOKEN unlocks the counts', async () => {
    const token = 'health-token-0123456789abcdef';
    bot = spawnBot({ ...loopbackEnv(telegram, sandbox, dataDir), LOG_LEVEL: 'info', PORT: '0', HEALTH_TOKEN: token }, dataDir);
    const running = bot;
    const healthUrl = await telegram.waitFor(() => /"healthUrl":"([^"]+)"/.exec(running.output)?.[1], {
      timeoutMs: 30_000,
      message: `the bot did not start polling:\n${running.output}`,
    });
    expect(new URL(healthUrl).hostname).toBe('127.0.0.1');

    expect(await (await fetch(healthUrl)).json()).toEqual({ ok: true });
    expect((await fetch(healthUrl, { headers: { authorization: 'Bearer wrong-token-0123456789abcdef' } })).status).toBe(401);
    const counts = await fetch(healthUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(await counts.json()).toEqual({ ok: true, users: 0, openPurchases: 0, queuedNotices: 0 });
    expect(running.output).not.toContain(token);
  }, 60_000);
});
