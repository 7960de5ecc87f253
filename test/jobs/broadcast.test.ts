/**
 * The broadcast runner on the outbox's bulk lane, against the Bot API emulator with a real store:
 * one write for the whole audience, the outbox's own notices ahead of the broadcast, one global
 * window shared by both.
 */
import { createTempDirs, dbOf, openTestStore } from '../store/helpers.ts';
import path from 'node:path';
import { Api } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { createOutbox, maxUnrecordedDeliveries } from '../../src/notify/outbox.ts';
import type { OutboxLimits } from '../../src/notify/outbox.ts';
import { createBroadcastRunner } from '../../src/jobs/broadcast.ts';
import { broadcastsFileName } from '../../src/store/broadcasts.ts';
import type { BroadcastJob } from '../../src/store/records/broadcasts.ts';
import { readFileSync } from 'node:fs';
import { createTestDisk, type TestDisk } from '../helpers/disk.ts';
import { startBotApi } from '../../tools/playground/bot-api.ts';

const dirs = createTempDirs();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  dirs.cleanup();
});

const logger = createLogger({ level: 'error', write: () => undefined });

/** The emulated Bot API, a store, an outbox with `limits` and a broadcast runner on its bulk lane, paced at `rate` per `windowMs`. */
async function startBroadcasting(limits: OutboxLimits, rate: number, windowMs: number, disk?: TestDisk) {
  const telegram = await startBotApi();
  const dataDir = dirs.make();
  const { store } = await openTestStore(dataDir, disk ? { writeFile: disk.write } : {});
  const api = new Api(telegram.token, { apiRoot: telegram.apiRoot });
  const outbox = createOutbox({
    api,
    db: dbOf(store),
    logger,
    limits: { ...limits, bulkPerSecond: rate, bulkWindowMs: windowMs },
    retry: { baseMs: 20, maxMs: 100 },
  });
  const runner = createBroadcastRunner({
    db: dbOf(store),
    logger,
    paid: false,
    translate: (_locale, key) => key,
    defaultLocale: 'id',
    enqueue: async (items) => {
      for (const item of items) await store.outbox.enqueue(item);
      outbox.kick();
    },
    kick: () => outbox.kick(),
    attach: (source) => outbox.setBulkSource(source),
  });
  cleanups.push(async () => {
    await runner.stop();
    await outbox.stop();
    await store.close();
    await telegram.close();
  });
  /** Stores a broadcast of an admin's message to `recipients` and starts the outbox and the runner. */
  const broadcastTo = async (recipients: ReadonlyArray<{ id: number }>) => {
    const admin = telegram.createUser({ firstName: 'Admin', id: 990001 });
    // The admin's own message is copied (sent by the admin, so it does not count as a bot send).
    const source = admin.send('Harga naik besok');
    await store.broadcasts.create({
      id: 'job1',
      adminId: admin.id,
      fromChatId: admin.id,
      messageId: source.messageId,
      audience: { kind: 'all' },
      recipients: recipients.map((user) => user.id),
    });
    outbox.start();
    runner.start();
  };
  /** Positions of the job finished in the file on disk: what a restart after a kill -9 would not send again. */
  const finishedOnDisk = () => {
    const job = (JSON.parse(readFileSync(path.join(dataDir, broadcastsFileName), 'utf8')) as { jobs: Record<string, BroadcastJob> }).jobs
      .job1!;
    return job.next + job.doneAbove.length;
  };
  return { telegram, store, outbox, broadcastTo, finishedOnDisk };
}

describe('broadcast jobs', () => {
  it('stores an audience of 10,000 in one write of the broadcasts file', async () => {
    const { store, writes } = await openTestStore(dirs.make());
    cleanups.push(() => store.close());
    const before = writes.length;
    const recipients = Array.from({ length: 10_000 }, (_, i) => 1_000_000 + i);
    await store.broadcasts.create({ id: 'job1', adminId: 1, fromChatId: 1, messageId: 5, audience: { kind: 'all' }, recipients });
    const written = writes.slice(before);
    expect(written).toHaveLength(1);
    expect(path.basename(written[0]!.file)).toBe(broadcastsFileName);
    expect(store.broadcasts.progress('job1')).toMatchObject({ total: 10_000, sent: 0, status: 'running' });
  });

  it('killed between the two files of an end (broadcasts.json not written yet), the next open ends the job with its one report', async () => {
    const dataDir = dirs.make();
    // Only the hot file reaches the disk: the kill comes before broadcasts.json is written.
    const disk = createTestDisk({ spare: (file) => !file.endsWith(broadcastsFileName) });
    const { store } = await openTestStore(dataDir, { writeFile: disk.write });
    await store.broadcasts.create({ id: 'job1', adminId: 1, fromChatId: 1, messageId: 5, audience: { kind: 'all' }, recipients: [10] });
    disk.setFull(true);
    const report = [{ chatId: 1, kind: 'broadcast-report', payload: { type: 'send', text: 'Siaran selesai' } }];
    await expect(store.broadcasts.finish('job1', 'done', report)).rejects.toThrow();
    await store.close().catch(() => undefined);
    const { store: reopened } = await openTestStore(dataDir);
    cleanups.push(() => reopened.close());
    expect(reopened.broadcasts.progress('job1')).toMatchObject({ status: 'done' });
    expect(reopened.outbox.list().map((item) => item.kind)).toEqual(['broadcast-report']);
    // The runner's retry after the restart queues nothing more.
    await reopened.broadcasts.finish('job1', 'done', report);
    expect(reopened.outbox.size()).toBe(1);
  });

  it("gives the outbox's own notices priority over the broadcast and keeps both inside one global window", async () => {
    const { telegram, store, outbox, broadcastTo } = await startBroadcasting(
      { perChatMs: 10, globalPerSecond: 10, globalWindowMs: 100 },
      1000,
      100,
    );
    const users = Array.from({ length: 60 }, (_, i) => telegram.createUser({ firstName: `U${i}` }));
    await broadcastTo(users);
    await telegram.waitFor(() => telegram.callsTo('copyMessage').length >= 10);
    const copiesBefore = telegram.callsTo('copyMessage').length;
    await store.outbox.enqueue({ chatId: users[59]!.id, kind: 'settlement', payload: { type: 'send', text: 'Transaksi Sukses' } });
    outbox.kick();
    const notice = await telegram.waitForBotMessage(users[59]!, { textIncludes: 'Transaksi Sukses' });
    const copiesAtNotice = telegram.callsTo('copyMessage').filter((call) => call.at <= notice.sentAt).length;
    // Only the deliveries already started (the crash bound) and one window's worth may go first.
    expect(copiesAtNotice - copiesBefore).toBeLessThanOrEqual(maxUnrecordedDeliveries + 10);
    await telegram.waitFor(() => store.broadcasts.progress('job1')?.status === 'done', { timeoutMs: 10_000 });
    expect(store.broadcasts.progress('job1')).toMatchObject({ sent: 60, blocked: 0, failed: 0 });
    // Broadcast and notices together never exceed the outbox's global window (10 per 100 ms).
    expect(telegram.maxSendsInWindow('all', 100)).toBeLessThanOrEqual(10);
  });

  it('does not spend its rate on recipients who blocked the bot since: the next recipient takes the slot at once', async () => {
    // The job allows 3 sends a minute: no window of it ends during the test.
    const { telegram, store, broadcastTo } = await startBroadcasting(
      { perChatMs: 10, globalPerSecond: 1000, ceilingPerSecond: 1000 },
      3,
      60_000,
    );
    const users = Array.from({ length: 6 }, (_, i) => telegram.createUser({ firstName: `U${i}` }));
    // The first three blocked the bot after the audience was taken (the bot was told: inactive).
    for (const user of users) await store.users.upsert({ id: user.id, firstName: user.user.first_name });
    for (const user of users.slice(0, 3)) await store.users.setActive(user.id, false);
    await broadcastTo(users);
    // Three sends allowed in the window, three active recipients: all of them within it.
    await telegram.waitFor(() => store.broadcasts.progress('job1')?.status === 'done', { timeoutMs: 5_000 });
    expect(store.broadcasts.progress('job1')).toMatchObject({ sent: 3, blocked: 3, failed: 0 });
    // Sent concurrently to different chats: in any order.
    const copiedTo = telegram.callsTo('copyMessage').map((call) => Number(call.params.chat_id));
    expect(copiedTo.sort((a, b) => a - b)).toEqual(users.slice(3).map((user) => user.id));
  });
  it('a full disk mid-way stops the broadcast: at most maxUnrecorded copies go out unrecorded, and the counts are exact once it works again', async () => {
    const disk = createTestDisk();
    const { telegram, store, broadcastTo, finishedOnDisk } = await startBroadcasting(
      { perChatMs: 10, globalPerSecond: 1000, ceilingPerSecond: 1000 },
      1000,
      100,
      disk,
    );
    const users = Array.from({ length: 120 }, (_, i) => telegram.createUser({ firstName: `U${i}` }));
    await broadcastTo(users);
    await telegram.waitFor(() => telegram.callsTo('copyMessage').length >= 20);
    disk.setFull(true);
    // The outcomes are written again and again while the disk is full.
    await telegram.waitFor(() => disk.failed.length >= 10, { timeoutMs: 10_000 });
    // Every copy whose position is not finished on disk would go out again after a kill -9 now.
    expect(telegram.callsTo('copyMessage').length - finishedOnDisk()).toBeLessThanOrEqual(maxUnrecordedDeliveries);

    disk.setFull(false);
    await telegram.waitFor(() => store.broadcasts.progress('job1')?.status === 'done', { timeoutMs: 10_000 });
    const copies = telegram.callsTo('copyMessage').map((call) => Number(call.params.chat_id));
    expect(new Set(copies).size, 'nobody got it twice').toBe(copies.length);
    // The report counts what really went out.
    expect(store.broadcasts.progress('job1')).toMatchObject({ sent: copies.length, blocked: 0, failed: 0 });
    expect(copies).toHaveLength(120);
  });
});
