/**
 * The data directory turns read-only (or fills up) while the bot runs: the updates that may move
 * money cannot be stored, so they are not handled. Their users are told at once that the bot cannot
 * save right now and to try again in a few minutes; the log names the data directory, the file and
 * the errno, never the network; and nothing is bought, then or after the disk works again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiCallFn } from 'grammy';
import type { Update } from 'grammy/types';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { inboxGetUpdatesTransformer } from '../../src/server/update-inbox.ts';
import { createUnstoredUpdates } from '../../src/server/unstored-updates.ts';
import { openContractInbox } from '../helpers/contract-inbox.ts';
import { createVault } from '../../src/store/vault.ts';
import { dataDirectoryOf, type TestWorld } from '../helpers/app.ts';
import { privateTextUpdate } from '../helpers/updates.ts';
import { buyer, waitForSummary } from '../helpers/buy.ts';
import { createTestDisk, type TestDisk } from '../helpers/disk.ts';
import { startSettlementWorld, testClock } from '../helpers/settlement.ts';

describe('a data directory that cannot be written while the bot runs', () => {
  let world: TestWorld;
  let disk: TestDisk;
  afterEach(async () => {
    disk.setReadOnly(false);
    disk.setFull(false);
    await world.stop();
  });

  const start = async () => {
    disk = createTestDisk();
    world = await startSettlementWorld(testClock(), { jobs: false, app: { storeWriteFile: disk.write } });
  };
  const purchases = () => world.sandbox.received.filter((request) => request.service === 'reseller' && request.path === '/transaction');
  const logLines = () => world.logs.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('answers a message with "cannot save, try again in a few minutes", and logs the read-only directory, not the network', async () => {
    await start();
    const budi = await buyer(world);
    disk.setReadOnly(true);

    const sent = budi.send('/saldo');
    const answer = await world.telegram.waitForBotMessage(budi, { after: sent });
    expect(answer.text).toContain('tidak bisa menyimpan');
    expect(answer.text).toContain('beberapa menit');

    const line = logLines().find((entry) => entry.errno === 'EROFS');
    expect(line).toMatchObject({
      level: 'error',
      dataDirProblem: 'the data directory is on a read-only file system',
      path: expect.stringContaining(world.dataDir) as string,
      whatToDo: expect.stringContaining('remount') as string,
    });
    expect(JSON.stringify(line)).not.toMatch(/network|TELEGRAM_API_ROOT/);
  });

  it('a Confirm tap that cannot be stored is answered, never bought, and not bought later when the disk works again', async () => {
    await start();
    const siti = await buyer(world, 'Siti');
    const summary = await waitForSummary(world, siti, siti.send('/beli TSEL10 081234567890'));
    // The /beli message handled and marked done on disk (a restart would replay it otherwise).
    await world.idle();
    await dataDirectoryOf(world.app).flush();

    disk.setFull(true);
    const tap = siti.tap(summary, '✅ Konfirmasi');
    const alert = await world.telegram.waitForCallbackAnswer(tap);
    expect(alert.text).toContain('tidak bisa menyimpan');
    const full = logLines().find((entry) => entry.errno === 'ENOSPC');
    expect(full?.path).toEqual(expect.stringContaining(world.dataDir));

    disk.setFull(false);
    await world.idle();
    await world.restart();
    await world.idle();
    expect(purchases()).toEqual([]);

    // Tapped again (as the answer says), it buys once.
    siti.tap(summary, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(siti, { after: summary, textIncludes: /Sedang diproses|Sukses/ });
    expect(purchases()).toHaveLength(1);
  });
});

describe('the getUpdates transformer when the inbox cannot be written', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  /** A read-only inbox behind the transformer, a fake Telegram, and every call made to it, in order. */
  const setup = async (options: { ackFails?: boolean } = {}) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-unstored-'));
    dirs.push(dir);
    const disk = createTestDisk();
    const { inbox } = await openContractInbox(dir, createVault({ key: Buffer.alloc(32, 9) }), disk.write);
    disk.setReadOnly(true);
    const calls: Array<Record<string, unknown>> = [];
    const answers: Update[][] = [[privateTextUpdate(7, '/beli TSEL10 0812'), privateTextUpdate(8, 'TSEL10.0812')]];
    const record = (method: string, payload: Record<string, unknown>) => {
      calls.push({ method, ...payload });
      if (method === 'getUpdates' && payload.limit === 1 && options.ackFails) return Promise.reject(new Error('network down'));
      return Promise.resolve({ ok: true as const, result: method === 'getUpdates' ? (answers.shift() ?? []) : true });
    };
    const logs: Array<Record<string, unknown>> = [];
    const unstored = createUnstoredUpdates({
      api: {
        sendMessage: (chatId: number, text: string) => record('sendMessage', { chat_id: chatId, text }),
        answerCallbackQuery: (id: string, other?: { text?: string }) => record('answerCallbackQuery', { id, ...other }),
      } as never,
      logger: createLogger({ level: 'debug', write: (line) => logs.push(JSON.parse(line) as Record<string, unknown>) }),
      textFor: () => Promise.resolve('cannot save'),
    });
    const transformer = inboxGetUpdatesTransformer(inbox, unstored);
    const poll = (offset: number) =>
      transformer(record as unknown as ApiCallFn, 'getUpdates', { offset, timeout: 30 }) as Promise<{
        result: Update[];
      }>;
    return { calls, logs, poll, unstored };
  };

  it('acknowledges the updates to Telegram before their users are told, and hands the runner none of them', async () => {
    const { calls, logs, poll, unstored } = await setup();
    const answer = await poll(0);
    expect(answer.result).toEqual([]);
    expect(calls.map((call) => [call.method, call.offset])).toEqual([
      ['getUpdates', 0],
      ['getUpdates', 9],
      ['sendMessage', undefined],
      ['sendMessage', undefined],
    ]);
    expect(unstored.wasDropped(7) && unstored.wasDropped(8)).toBe(true);
    expect(logs).toEqual([expect.objectContaining({ level: 'error', errno: 'EROFS', updateIds: [7, 8] })]);
    // The next poll starts past them.
    await poll(0);
    expect(calls.at(-1)).toMatchObject({ method: 'getUpdates', offset: 9 });
  });

  it('when the acknowledgement fails, tells nobody, drops nothing and fails the call (Telegram sends them again)', async () => {
    const { calls, poll, unstored } = await setup({ ackFails: true });
    await expect(poll(0)).rejects.toMatchObject({ code: 'EROFS' });
    expect(calls.map((call) => call.method)).toEqual(['getUpdates', 'getUpdates']);
    expect(unstored.wasDropped(7)).toBe(false);
  });
});
