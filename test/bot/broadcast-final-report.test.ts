/**
 * A broadcast's final report survives the app stopping at the instant its job ends: the admin gets
 * exactly one "Siaran selesai" report after the restart, never none and never two, on both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import { adminId, startPhotoBroadcast, worldWithUsers } from '../helpers/broadcast.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/pg-database.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

const postgres = await postgresAvailable();

const engines = [
  { name: 'lowdb', available: true },
  { name: 'PostgreSQL', available: postgres === true },
] as const;

describe.each(engines)("a broadcast's final report when the app stops as the job ends ($name)", ({ name, available }) => {
  let world: TestWorld | undefined;
  let database: TestDatabase | undefined;

  beforeAll(async () => {
    if (name === 'PostgreSQL' && available) database = await createTestDatabase();
  });
  afterEach(async () => {
    await world?.stop();
    world = undefined;
    await database?.empty();
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** 20 users (one blocked the bot), `rate` copies per 100 ms, on this engine. */
  const start = async (rate = 100) => {
    const env: Record<string, string> = database
      ? { DATABASE_URL: database.url, WEBHOOK_URL: 'https://bot.example/telegram', WEBHOOK_SECRET: 'a-secret-of-sixteen-chars' }
      : {};
    const [started, audience] = await worldWithUsers(20, {
      env,
      telegram: { enforceLimits: { globalPerSecond: 5000, perChatPerSecond: 50 } },
      app: { outboxLimits: { perChatMs: 10, globalPerSecond: 5000 }, broadcast: { rate, windowMs: 100, progressEveryMs: 100 } },
    });
    world = started;
    return audience;
  };

  /** Final reports in the admin's chat (the picker, edited into the progress message, ends saying "Siaran selesai" too). */
  const reports = (w: TestWorld, admin: EmulatedUser, picker: EmulatedMessage) =>
    w.telegram.botMessages(admin).filter((m) => m.messageId !== picker.messageId && m.text?.includes('Siaran selesai'));

  /**
   * Runs `atEnd` the moment the job's end is written (its write resolved), before the runner does
   * anything after it; what `atEnd` rejects with is what the runner sees.
   */
  const onJobEnd = (w: TestWorld, atEnd: () => Promise<void>) => {
    const broadcasts = w.app.db.broadcasts;
    const finish = broadcasts.finish.bind(broadcasts);
    broadcasts.finish = async (...args) => {
      const ended = await finish(...args);
      await atEnd();
      return ended;
    };
  };

  it.skipIf(!available)(
    'the runner fails right after the job ends, and the app stops: after the restart the admin gets exactly one report',
    async () => {
      const { admin, users, blocked } = await start();
      const w = world!;
      let ended!: () => void;
      const jobEnded = new Promise<void>((resolve) => (ended = resolve));
      // Nothing the runner does after the end's write happens (as if the process died there); the app stops at once.
      onJobEnd(w, () => {
        ended();
        return Promise.reject(new Error('stopped right after the end was written'));
      });
      const picker = await startPhotoBroadcast(w, admin);
      admin.tap(picker, '📣 Kirim');
      await jobEnded;
      await w.restart();
      const report = await w.telegram.waitForBotMessage(admin, { after: picker, textIncludes: 'Siaran selesai', timeoutMs: 15_000 });
      expect(report.text).toContain(`Terkirim: ${users.length - blocked.size + 1} · diblokir: ${blocked.size} · gagal: 0`);
      await w.app.outbox.drain();
      expect(reports(w, admin, picker)).toHaveLength(1);
      expect(w.telegram.botMessages(admin).every((m) => m.chatId === adminId)).toBe(true);
    },
    30_000,
  );

  it.skipIf(!available)(
    'a graceful stop while the job ends waits for it: no error logged, one report after the restart',
    async () => {
      const { admin } = await start();
      const w = world!;
      const runner = w.app.broadcaster;
      const stopRunner = runner.stop.bind(runner);
      let stopped!: () => void;
      const stopping = new Promise<void>((resolve) => (stopped = resolve));
      runner.stop = () => {
        stopped();
        return stopRunner();
      };
      let restarted: Promise<void> | undefined;
      let ending!: () => void;
      const jobEnding = new Promise<void>((resolve) => (ending = resolve));
      // The app is asked to stop just before the job's end is written; the write goes on after the runner was told to stop.
      const broadcasts = w.app.db.broadcasts;
      const finish = broadcasts.finish.bind(broadcasts);
      broadcasts.finish = async (...args) => {
        restarted ??= w.restart();
        ending();
        await stopping;
        return finish(...args);
      };
      const picker = await startPhotoBroadcast(w, admin);
      const logsBefore = w.logs.length;
      admin.tap(picker, '📣 Kirim');
      await jobEnding;
      await restarted;
      const errors = w.logs.slice(logsBefore).filter((line) => line.includes('"level":"error"'));
      await w.telegram.waitForBotMessage(admin, { after: picker, textIncludes: 'Siaran selesai', timeoutMs: 15_000 });
      await w.app.outbox.drain();
      expect(reports(w, admin, picker)).toHaveLength(1);
      expect(errors).toEqual([]);
    },
    30_000,
  );

  it.skipIf(!available)(
    '/broadcast_cancel and the app stops before the runner ends the job: after the restart the admin gets one "dihentikan" report',
    async () => {
      const { admin } = await start(1);
      const w = world!;
      let cancelled!: () => void;
      const jobCancelled = new Promise<void>((resolve) => (cancelled = resolve));
      const broadcasts = w.app.db.broadcasts;
      const finish = broadcasts.finish.bind(broadcasts);
      broadcasts.finish = async (id, status, report) => {
        const ended = await finish(id, status, report);
        // The admin's cancel is written; the runner stops before the copies in flight settle and it ends the job.
        if (status === 'cancelled' && !report) {
          void w.app.broadcaster.stop();
          cancelled();
        }
        return ended;
      };
      const picker = await startPhotoBroadcast(w, admin);
      admin.tap(picker, '📣 Kirim');
      await w.telegram.waitFor(() => w.telegram.callsTo('copyMessage').length >= 3);
      admin.send('/broadcast_cancel');
      await jobCancelled;
      await w.restart();
      const report = await w.telegram.waitForBotMessage(admin, { after: picker, textIncludes: '⏹ Siaran dihentikan.', timeoutMs: 15_000 });
      await w.app.outbox.drain();
      const cancelReports = w.telegram
        .botMessages(admin)
        .filter((m) => m.messageId !== picker.messageId && m.text?.includes('⏹ Siaran dihentikan.'));
      expect(cancelReports).toEqual([report]);
      expect(await w.app.db.broadcasts.running()).toBeUndefined();
    },
    30_000,
  );
});
