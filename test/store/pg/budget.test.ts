/**
 * The connection budget (DATABASE_POOL_SIZE): what README "Scaling out" promises an operator. An
 * instance never has more connections than its budget, however many chats it handles at once
 * (chats beyond the lock connections wait, they do not fail), and four instances with the default
 * budget fit a default PostgreSQL server (max_connections = 100).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig } from '../../../src/config.ts';
import { connectionBudget } from '../../../src/store/pg/budget.ts';
import { openPgEngine } from '../../../src/store/pg/engine.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../helpers/pg-database.ts';

const available = await postgresAvailable();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const env = {
  BOT_TOKEN: '123456789:AAEabcdefghijklmnopqrstuvwxyz012345',
  RESELLER_API_URL: 'http://127.0.0.1:8787/reseller/api/v1/',
  MARKETPLACE_API_URL: 'http://127.0.0.1:8787/marketplace',
  GAMESHOP_API_URL: 'http://127.0.0.1:8787/gameshop/api',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

/** What README "Scaling out" says a server needs besides the instances: the superuser reserve and room for the operator's tools. */
const superuserReserved = 3;
const operatorRoom = 5;

describe('the connection budget (DATABASE_POOL_SIZE)', () => {
  it('four instances with the default budget fit a default server (max_connections 100), as README "Scaling out" says', () => {
    const perInstance = createConfig(env).databasePoolSize;
    const budget = connectionBudget(perInstance);
    expect(budget.queries + budget.chatLocks + budget.sendClaims).toBe(perInstance);
    expect(4 * perInstance + superuserReserved + operatorRoom).toBeLessThanOrEqual(100);
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    // The figures the README gives are the ones the code uses.
    expect(readme).toContain(`| \`DATABASE_POOL_SIZE\` | | \`${perInstance}\` |`);
    expect(readme).toContain(
      `4 × ${perInstance} + ${superuserReserved} + ${operatorRoom} = ${4 * perInstance + superuserReserved + operatorRoom}`,
    );
  });

  it('a budget below 5 or not a number is refused with what to set', () => {
    expect(() => createConfig({ ...env, DATABASE_POOL_SIZE: '4' })).toThrow(/DATABASE_POOL_SIZE.*between 5 and 1000/s);
    expect(() => createConfig({ ...env, DATABASE_POOL_SIZE: 'many' })).toThrow(/DATABASE_POOL_SIZE.*whole number/s);
  });
});

describe.skipIf(available !== true)('an instance under load on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('never has more connections than its budget: 24 chats at once on a budget of 6 all get their turn', async () => {
    const total = 6;
    const budget = connectionBudget(total);
    const name = 'kiosbot budget-test';
    const engine = await openPgEngine({
      connectionString: database.url,
      max: budget.queries,
      chatLockConnections: budget.chatLocks,
      applicationName: name,
    });
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      for (; sampling; await sleep(10)) {
        const [row] = await database.sql<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [
          name,
        ]);
        peak = Math.max(peak, row?.n ?? 0);
      }
    })();
    try {
      let holding = 0;
      let mostHolding = 0;
      const chats = Array.from({ length: 24 }, (_, i) => i + 1);
      const done = await Promise.all(
        chats.map((chatId) =>
          engine.chatLocks.run(chatId, async () => {
            holding += 1;
            mostHolding = Math.max(mostHolding, holding);
            await engine.users.upsert({ id: chatId, firstName: `Chat ${chatId}` });
            await Promise.all([engine.users.get(chatId), engine.users.count(), engine.outbox.size()]);
            await sleep(30);
            holding -= 1;
            return chatId;
          }),
        ),
      );
      expect(done).toEqual(chats);
      expect(mostHolding, 'chats holding their lock at once').toBe(budget.chatLocks);
    } finally {
      sampling = false;
      await sampler;
      await engine.close();
    }
    expect(peak, 'connections of the instance in pg_stat_activity').toBeGreaterThan(budget.chatLocks);
    expect(peak).toBeLessThanOrEqual(total);
  }, 30_000);
});
