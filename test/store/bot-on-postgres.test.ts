/**
 * The bot with DATABASE_URL: the same flows as on lowdb, on a PostgreSQL database of the test's
 * own — a purchase that settles with one notice, a double tap on Confirm that buys once, a flow
 * that continues on another instance (a second app on the same database), and secrets that reach
 * the database sealed only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loopbackEnv, type TestWorld } from '../helpers/app.ts';
import { createApp } from '../../src/app.ts';
import { createConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { buyer, sandboxTransactions, waitForSummary } from '../helpers/buy.ts';
import { buyPending, recheck, startSettlementWorld, testClock, waitForSettled } from '../helpers/settlement.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/pg-database.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { adminId } from '../helpers/broadcast.ts';

const available = await postgresAvailable();
const main = resellerDemoAccounts.main;

describe.skipIf(available !== true)('the bot on PostgreSQL (DATABASE_URL)', () => {
  let database: TestDatabase;
  let world: TestWorld | undefined;
  const clock = testClock();

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await world?.stop();
    world = undefined;
    // Each test on an empty database (the emulator hands out the same user ids again).
    await database.empty();
  });
  afterAll(async () => {
    await database.drop();
  });

  const start = async (env: Record<string, string> = {}) => {
    world = await startSettlementWorld(clock, {
      env: { DATABASE_URL: database.url, WEBHOOK_URL: 'https://bot.example/telegram', WEBHOOK_SECRET: 'a-secret-of-sixteen-chars', ...env },
    });
    return world;
  };

  it('a Pending purchase settles: the receipt, exactly one ping, and the record final in the database', async () => {
    const w = await start();
    expect(w.app.db.kind).toBe('postgres');
    const budi = await buyer(w);
    const pending = await buyPending(w, budi, 'TSEL10', '081234567890');
    expect(sandboxTransactions(w)).toHaveLength(1);

    await recheck(w, clock, 3);
    const ping = await waitForSettled(w, budi, pending, 'Transaksi sukses');
    expect(ping.text).toBe('✅ Telkomsel 10.000 · 0812****7890 · Sukses');
    await recheck(w, clock, 3);
    await w.app.outbox.drain();
    expect(w.telegram.botMessages(budi).filter((m) => m.messageId > pending.messageId)).toEqual([ping]);
    const rows = await database.sql<{ final: boolean; status: string }>(`SELECT final, record->>'status' AS status FROM transactions`);
    expect(rows).toEqual([{ final: true, status: 'Sukses' }]);
    expect(await database.sql('SELECT id FROM outbox')).toEqual([]);
  });

  it('a double tap on Confirm buys once', async () => {
    const w = await start();
    const budi = await buyer(w);
    const summary = await waitForSummary(w, budi, budi.send('/beli TSEL10 081234567890'));
    budi.tap(summary, '✅ Konfirmasi');
    budi.tap(summary, '✅ Konfirmasi');
    await w.telegram.waitForBotMessage(budi, { after: summary, textIncludes: /Sedang diproses|Belum pasti/ });
    await w.idle();
    expect(sandboxTransactions(w)).toHaveLength(1);
    expect(await database.sql('SELECT id FROM confirmations')).toHaveLength(1);
  });

  it('a flow started on one instance continues on another; the key reaches the database sealed only', async () => {
    const w = await start();
    const budi = w.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const picker = await w.telegram.waitForBotMessage(budi, { after: budi.send('/connect') });
    budi.tap(picker, 'Top-up reseller');
    await w.telegram.waitForBotMessage(budi, { after: picker, textIncludes: 'API ID' });
    await w.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId), textIncludes: 'API key' });
    // The state is stored once the prompt is out; then this instance goes and another takes over.
    for (let waited = 0; (await database.sql('SELECT key FROM conversations')).length === 0; waited += 10) {
      if (waited > 5000) throw new Error('the conversation state was never stored');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await w.restart();
    const done = await w.telegram.waitForBotMessage(budi, { after: budi.send(main.apiKey), textIncludes: '✅' });
    expect(done.text).toContain('DEMO…LER');
    expect(await w.app.services.credentials.load(budi.id, 'reseller')).toEqual({ apiId: main.apiId, apiKey: main.apiKey });
    const dump =
      JSON.stringify(await database.sql('SELECT * FROM credentials')) + JSON.stringify(await database.sql('SELECT * FROM conversations'));
    expect(dump).not.toContain(main.apiKey);
    expect(dump).toContain('DEMO…LER');
  });

  it('/broadcast drafted on one instance is confirmed through another (the draft is in the database)', async () => {
    const w = await start({ ADMIN_IDS: String(adminId) });
    const admin = w.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: adminId });
    const budi = await buyer(w);
    const picker = await w.telegram.waitForBotMessage(admin, {
      after: admin.send('/broadcast Promo pulsa hari ini'),
      textIncludes: 'Kirim ke siapa',
    });
    admin.tap(picker, 'Semua pengguna aktif');
    await w.telegram.waitFor(() => picker.text?.includes('pengguna aktif (Semua pengguna aktif)') ?? false);
    // This instance goes; the tap reaches another.
    await w.restart();
    admin.tap(picker, '📣 Kirim');
    await w.telegram.waitForBotMessage(admin, { textIncludes: 'Siaran selesai', timeoutMs: 10_000 });
    expect(w.telegram.botMessages(budi).filter((m) => m.text === 'Promo pulsa hari ini')).toHaveLength(1);
  });

  it('an instance started with another ENCRYPTION_KEY is refused before it touches a secret', async () => {
    const w = await start();
    const budi = await buyer(w);
    const otherKey = Buffer.alloc(32, 9).toString('base64');
    const config = { ...w.config, ...createConfig({ ...envOf(w), ENCRYPTION_KEY: otherKey }) };
    await expect(createApp(config, { logger: createLogger({ level: 'error', write: () => undefined }) })).rejects.toThrow(
      /ENCRYPTION_KEY is not the key the data in the PostgreSQL database kiosbot_test_\w+ was encrypted with/,
    );
    // The running instance is unaffected, its key check value unchanged.
    expect(await w.app.services.credentials.load(budi.id, 'reseller')).toEqual({ apiId: main.apiId, apiKey: main.apiKey });
    expect(await database.sql(`SELECT key FROM store_meta`)).toEqual([{ key: 'key_check' }]);
  });
});

/** The environment a world's app was configured from, for a second app beside it. */
function envOf(w: TestWorld): Record<string, string> {
  return {
    ...loopbackEnv(w.telegram, w.sandbox, w.dataDir),
    DATABASE_URL: w.config.databaseUrl ?? '',
    WEBHOOK_URL: 'https://bot.example/telegram',
    WEBHOOK_SECRET: 'a-secret-of-sixteen-chars',
  };
}
