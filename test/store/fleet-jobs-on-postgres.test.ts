/**
 * The jobs with two instances on one PostgreSQL database. A broadcast: one of them delivers it
 * (the leadership lock), each user gets one copy, and when the delivering instance stops halfway
 * the job goes on from its recorded progress on an instance that is up: one copy each all the
 * same, and one final report. Daily summaries: both instances' passes at once queue one each.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { createLogger } from '../../src/logger.ts';
import type { TestWorld } from '../helpers/app.ts';
import { copiesOf, startPhotoBroadcast, worldWithUsers } from '../helpers/broadcast.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/pg-database.ts';

const available = await postgresAvailable();
/** The first line of a daily summary (locales/id). */
const headline = '🗓 Ringkasan harian';

describe.skipIf(available !== true)('jobs on a fleet sharing PostgreSQL', () => {
  let database: TestDatabase;
  let world: TestWorld | undefined;
  let second: App | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await second?.close();
    second = undefined;
    await world?.stop();
    world = undefined;
    // Each test on an empty database (the emulator hands out the same user ids again).
    await database.empty();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('each user gets one copy although the delivering instance stops halfway; one report', async () => {
    // On a busy machine (load ~20 on 2 cores) the first copies take seconds to go out and the job
    // about a minute: the waits are bounded by the test's own time, not by what an idle machine needs.
    const deadline = performance.now() + 150_000;
    const left = () => Math.max(1, deadline - performance.now());
    const fast = {
      outboxLimits: { perChatMs: 10, globalPerSecond: 5000 },
      broadcast: { rate: 20, windowMs: 1000, progressEveryMs: 200 },
    };
    const [w, { admin, users, blocked }] = await worldWithUsers(80, {
      env: { DATABASE_URL: database.url, WEBHOOK_URL: 'https://bot.example/telegram', WEBHOOK_SECRET: 'a-secret-of-sixteen-chars' },
      app: fast,
    });
    world = w;
    // A second instance beside it: its jobs run, it receives no updates.
    const secondLogs: string[] = [];
    second = await createApp(w.config, {
      logger: createLogger({ level: 'info', write: (line) => void secondLogs.push(line) }),
      botConfig: { botInfo: w.telegram.botInfo },
      ...fast,
    });

    // Telegram holds one recipient's copy back (429) until the first instance is down: however long
    // its shutdown takes (it delivers meanwhile), it stops with the job unfinished.
    const endHold = w.telegram.inject429({ method: 'copyMessage', chatId: users.at(-1)!.id, retryAfter: 1, times: Infinity });

    const picker = await startPhotoBroadcast(w, admin);
    admin.tap(picker, '📣 Kirim');
    // The first instance leads; the second one's jobs start after, so its wakes wait for the lock.
    await w.telegram.waitFor(() => w.logs.some((line) => line.includes('"broadcast running"')), { timeoutMs: left() });
    second.startJobs();
    const copies = () => users.reduce((sum, user) => sum + copiesOf(w, user), 0);
    await w.telegram.waitFor(() => copies() >= 15, { timeoutMs: left() });
    // The first instance goes (as in a deploy) and comes back; meanwhile the second one takes over.
    await w.restart(() => Promise.resolve(endHold()));
    await w.telegram.waitForBotMessage(admin, { textIncludes: 'Siaran selesai', timeoutMs: left() });

    for (const user of users) expect(copiesOf(w, user), `user ${user.id}`).toBe(blocked.has(user.id) ? 0 : 1);
    await w.app.outbox.drain();
    await second.outbox.drain();
    // One report after the progress message (which is edited to the same text besides).
    const reports = w.telegram.botMessages(admin).filter((m) => m.messageId > picker.messageId && m.text?.includes('Siaran selesai'));
    expect(reports).toHaveLength(1);
    // Delivered by one instance at a time: the next one (the second, or the first one back) started
    // where the first one's progress ended.
    const runs = [...w.logs, ...secondLogs]
      .filter((line) => line.includes('"broadcast running"'))
      .map((line) => JSON.parse(line) as { time: string; from: number })
      .sort((a, b) => a.time.localeCompare(b.time))
      .map((run) => run.from);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toBe(0);
    expect(runs[1]).toBeGreaterThanOrEqual(15);
    expect(await database.sql(`SELECT status FROM broadcasts`)).toEqual([{ status: 'done' }]);
  }, 180_000);

  it('daily summaries: two instances passing at the same moment queue one summary per user', async () => {
    const [w, { users, blocked }] = await worldWithUsers(30, {
      env: { DATABASE_URL: database.url, WEBHOOK_URL: 'https://bot.example/telegram', WEBHOOK_SECRET: 'a-secret-of-sixteen-chars' },
    });
    world = w;
    second = await createApp(w.config, {
      logger: createLogger({ level: 'error', write: () => undefined }),
      botConfig: { botInfo: w.telegram.botInfo },
    });
    for (const user of users) await w.app.db.users.update(user.id, { dailySummary: { hour: 0 } });
    const [first, other] = await Promise.all([w.app.summaries.runOnce(), second.summaries.runOnce()]);
    expect(first + other).toBe(users.length);
    // Sent by the running instance's outbox: each user gets one (but those who blocked the bot).
    await w.app.outbox.drain();
    for (const user of users) {
      const summaries = w.telegram.botMessages(user).filter((m) => m.text?.startsWith(headline));
      expect(summaries, `user ${user.id}`).toHaveLength(blocked.has(user.id) ? 0 : 1);
    }
  });
});
