/**
 * Crash safety with a real child process: the bot (as `npm run build` builds it, see
 * test/e2e/build-once.ts) is killed with SIGKILL at the worst moments of a purchase, then started
 * again on the same data.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../tools/sandbox/server.ts';
import { startBotApi, type BotApiEmulator, type EmulatedUser } from '../../tools/playground/bot-api.ts';
import { loopbackEnv } from '../helpers/app.ts';
import { seedUsers, serveOnLoopback } from './fixture.ts';
import { spawnBot, type BotProcess } from '../helpers/bot-process.ts';
import { eventually } from '../helpers/buy.ts';

/**
 * A provider front that forwards everything to the sandbox except purchase requests, which it
 * swallows: they never reach the provider, as if the bot had died just before sending them.
 */
async function startSwallowingProxy(target: string): Promise<{ url: string; swallowed: () => number; close(): Promise<void> }> {
  let swallowed = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url?.endsWith('/transaction')) {
        swallowed += 1;
        return; // never forwarded, never answered
      }
      void fetch(target + (req.url ?? ''), {
        method: req.method,
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      })
        .then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        })
        .catch(() => res.destroy());
    });
  });
  return { ...(await serveOnLoopback(server)), swallowed: () => swallowed };
}

describe('crash safety (kill -9 of the bot process)', () => {
  let sandbox: Sandbox;
  let telegram: BotApiEmulator;
  let dataDir: string;
  let bot: BotProcess | undefined;
  const output = () => bot?.output ?? '';

  beforeEach(async () => {
    sandbox = await startSandbox({ reseller: { settleAfterChecks: 1, settleAfterMs: 3_600_000 } });
    telegram = await startBotApi();
    dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-crash-'));
    bot = undefined;
  });
  afterEach(async () => {
    await bot?.stop('SIGKILL');
    await telegram.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Stores the user and their reseller credentials as /connect would, before the bot starts. */
  const seedUser = (user: EmulatedUser) => seedUsers(dataDir, [user], { reseller: true });

  /** Starts `src/main.ts` in a child process and resolves once it polls Telegram. */
  async function startBot(resellerUrl = sandbox.urls.reseller): Promise<void> {
    bot = spawnBot(
      {
        ...loopbackEnv(telegram, sandbox, dataDir),
        RESELLER_API_URL: resellerUrl,
        PROVIDER_TIMEOUT_MS: '10000',
        // The re-check that settles a recovered purchase comes 1 s after it was sent, not 10 s.
        RECHECK_FIRST_SECONDS: '1',
        LOG_LEVEL: 'info',
        PORT: '0',
      },
      dataDir,
    );
    await telegram.waitFor(() => telegram.polling && output().includes('bot ready'), {
      timeoutMs: 20_000,
      message: `the bot did not start polling:\n${output()}`,
    });
  }

  async function kill(): Promise<void> {
    await bot?.stop('SIGKILL');
  }

  async function confirmPurchase(user: EmulatedUser): Promise<void> {
    const summary = await telegram.waitForBotMessage(user, {
      after: user.send('/beli TSEL10 081234567890'),
      where: (m) => m.buttons.flat().includes('✅ Konfirmasi'),
      timeoutMs: 15_000,
    });
    user.tap(summary, '✅ Konfirmasi');
  }

  const successNotices = (user: EmulatedUser) =>
    telegram.botMessages(user).filter((m) => /sukses/i.test(m.text ?? '') && /TSEL10/.test(m.text ?? ''));

  it('killed while the provider is still working on the create: one transaction, one final notice', async () => {
    const budi = telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    await seedUser(budi);
    await startBot();
    // The provider takes 1.5 s to answer the create: the bot dies before the answer arrives.
    sandbox.inject({ service: 'reseller', path: '/transaction', times: 1, fault: { kind: 'latency', ms: 1500 } });
    await confirmPurchase(budi);
    // Polled: the emulator's waitFor re-checks only on Telegram-side changes, not the sandbox's.
    await eventually(() => sandbox.received.some((r) => r.path === '/transaction'), 15_000);
    await kill();
    // The provider finishes the request it received.
    await eventually(() => sandbox.reseller.transactions().length === 1, 10_000);

    await startBot();
    await telegram.waitFor(() => successNotices(budi).length >= 1, {
      timeoutMs: 20_000,
      message: `no final notice after the restart\n${output()}`,
    });
    expect(sandbox.reseller.transactions()).toHaveLength(1);
    expect(sandbox.reseller.transactions()[0]).toMatchObject({ code: 'TSEL10', target: '081234567890', status: 'Sukses' });
    // Every request carried the same ref id.
    const refIds = new Set(sandbox.received.filter((r) => r.path === '/transaction').map((r) => (r.body as { ref_id: string }).ref_id));
    expect(refIds.size).toBe(1);
    expect(successNotices(budi)).toHaveLength(1);
    await kill();
  }, 60_000);

  it('killed after the ref id was stored but before the request reached the provider: sent once after the restart', async () => {
    const budi = telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    await seedUser(budi);
    const proxy = await startSwallowingProxy(sandbox.url);
    await startBot(proxy.url + '/reseller/api/v1');
    await confirmPurchase(budi);
    await eventually(() => proxy.swallowed() === 1, 15_000);
    await kill();
    await proxy.close();
    expect(sandbox.reseller.transactions()).toHaveLength(0);

    await startBot();
    await telegram.waitFor(() => successNotices(budi).length >= 1, {
      timeoutMs: 25_000,
      message: `no final notice after the restart\n${output()}`,
    });
    expect(sandbox.reseller.transactions()).toHaveLength(1);
    expect(successNotices(budi)).toHaveLength(1);
    await kill();
  }, 60_000);
});
