/**
 * The fleet tests' lab: several bot processes (the e2e build, see test/e2e/build-once.ts) in
 * webhook mode sharing one PostgreSQL database, behind the round-robin proxy
 * (test/fleet/round-robin-proxy.ts) that Telegram (the emulator) posts updates to, all pointed at
 * one sandbox. Each lab has a database of its own (test/helpers/pg-database.ts: random name on
 * the server at 127.0.0.1:5432, dropped WITH (FORCE) at the end). Where no server answers, the
 * fleet tests are skipped with a warning; with CI=true or KIOSBOT_REQUIRE_POSTGRES=1 that is a
 * failure instead.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, onTestFinished } from 'vitest';
import { until } from './fixture.ts';
import { startBotApi, type BotApiEmulator, type EmulatedMessage, type EmulatedUser } from '../../tools/playground/bot-api.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../tools/sandbox/server.ts';
import { createDb } from '../../src/store/db.ts';
import { openPgEngine } from '../../src/store/pg/engine.ts';
import { createVault } from '../../src/store/vault.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../fleet/round-robin-proxy.ts';
import { loopbackEnv, testEncryptionKey } from '../helpers/app.ts';
import { spawnBot, type BotProcess } from '../helpers/bot-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { adminUrl, createTestDatabase, postgresAvailable } from '../helpers/pg-database.ts';

/** True, or why the fleet tests are skipped (no server; a failure instead with CI=true or KIOSBOT_REQUIRE_POSTGRES=1). */
export const postgres = await postgresAvailable();

/** The webhook secret every instance is given (16+ characters of A-Za-z0-9_-). */
const webhookSecret = 'fleet-test-secret_0123456789';

export interface FleetOptions {
  /** Bot processes behind the proxy. Default 3. */
  instances?: number;
  sandbox?: SandboxOptions;
  /** Webhook POSTs the emulator has in flight at once (Telegram's max_connections). Default 12. */
  webhookConnections?: number;
  /** Variables on top of the fleet's own, for every instance. */
  env?: Record<string, string>;
  /** The PostgreSQL server the lab's database is made on (default the tests' shared one). */
  serverUrl?: string;
}

export interface Fleet {
  sandbox: Sandbox;
  telegram: BotApiEmulator;
  proxy: RoundRobinProxy;
  /** The lab's own database. */
  databaseUrl: string;
  /** The processes, by proxy target index (empty before `start`). */
  readonly instances: readonly BotProcess[];
  /** Stores users (and the demo reseller account connected for each) as /start and /connect would, before `start`. */
  seed(users: readonly EmulatedUser[]): Promise<void>;
  /** Starts every instance and resolves once each has set the webhook and serves it ("webhook mode"). */
  start(): Promise<void>;
  /** Ends instance `index` with SIGKILL and marks it down in the proxy (a load balancer's health check would). */
  kill(index: number): Promise<void>;
  /**
   * Pauses instance `index` with SIGSTOP (its connections stay open: to the others it is slow, not
   * dead) and marks it down in the proxy, as a load balancer's failing health check would.
   */
  pause(index: number): void;
  /** Wakes a paused instance with SIGCONT and lets the proxy send it updates again. */
  resume(index: number): void;
  /** What every instance printed, each under a header, for failure messages. */
  output(): string;
  /** Runs SQL on the lab's database. */
  sql<T>(text: string, values?: unknown[]): Promise<T[]>;
  /** Kills the instances, closes the servers, drops the database, removes the directory. */
  close(): Promise<void>;
}

/**
 * One lab at a time on the machine's server: each instance may open DATABASE_POOL_SIZE (20)
 * connections, and two labs of three beside the other tests' databases would pass a default
 * server's 100 ("too many clients"). A session advisory lock, held for the lab's life, makes the
 * fleet files of parallel test workers take turns. A fleet test's time limit counts the wait for
 * its turn (at most about one other lab's life), hence their 7-minute limits.
 */
async function takeLabTurn(): Promise<pg.Client> {
  const turn = new pg.Client({ connectionString: adminUrl });
  turn.on('error', () => undefined);
  await turn.connect();
  await turn.query(`SELECT pg_advisory_lock(hashtextextended('kiosbot-test:fleet-lab', 0))`);
  return turn;
}

/** Opens a lab: its database, the sandbox, the emulator and the proxy; the instances start with `start()`. */
export async function openFleet(options: FleetOptions = {}): Promise<Fleet> {
  const count = options.instances ?? 3;
  const turn = await takeLabTurn();
  const database = await createTestDatabase(options.serverUrl).catch(async (error: unknown) => {
    await turn.end();
    throw error;
  });
  const databaseUrl = database.url;

  const sandbox = await startSandbox(options.sandbox);
  // The bot wants an https WEBHOOK_URL (Telegram's rule); the emulator posts to it over plain
  // HTTP on loopback, the proxy standing where a TLS-terminating load balancer would.
  const telegram = await startBotApi({ webhookConnections: options.webhookConnections ?? 12, webhookHttpsAsHttp: true });
  const ports: number[] = [];
  for (let i = 0; i < count; i += 1) ports.push(await freePort());
  const proxy = await startRoundRobinProxy({ targets: ports.map((port) => `http://127.0.0.1:${port}`) });
  const dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-fleet-'));
  const instances: BotProcess[] = [];
  const vault = createVault({ key: Buffer.from(testEncryptionKey, 'base64') });

  const envOf = (port: number): Record<string, string> => ({
    ...loopbackEnv(telegram, sandbox, dir),
    DATABASE_URL: databaseUrl,
    WEBHOOK_URL: `${proxy.url.replace(/^http:/, 'https:')}/telegram`,
    WEBHOOK_SECRET: webhookSecret,
    PORT: String(port),
    LOG_LEVEL: 'info',
    PROVIDER_TIMEOUT_MS: '10000',
    // The re-check that settles a purchase comes 1 s after it was sent, not 10 s.
    RECHECK_FIRST_SECONDS: '1',
    // A killed instance's claims (due checks, notices, stored updates) go to the others after 5 s.
    CLAIM_LEASE_SECONDS: '5',
    ...options.env,
  });

  let closing: Promise<void> | undefined;
  return {
    sandbox,
    telegram,
    proxy,
    databaseUrl,
    instances,
    async seed(users) {
      const db = createDb(await openPgEngine({ connectionString: databaseUrl, max: 4 }), vault);
      try {
        const { apiId, apiKey } = resellerDemoAccounts.main;
        for (const user of users) {
          await db.users.upsert({ id: user.id, firstName: user.user.first_name });
          await db.credentials.save(user.id, 'reseller', { apiId, apiKey }, 'DEMO');
        }
      } finally {
        await db.close();
      }
    },
    async start() {
      for (const port of ports) instances.push(spawnBot(envOf(port), dir));
      await Promise.all(instances.map((instance) => instance.waitForOutput((output) => output.includes('webhook mode'), 60_000)));
    },
    async kill(index) {
      await instances[index]?.stop('SIGKILL');
      proxy.setDown(index, true);
    },
    pause(index) {
      instances[index]?.signal('SIGSTOP');
      proxy.setDown(index, true);
    },
    resume(index) {
      instances[index]?.signal('SIGCONT');
      proxy.setDown(index, false);
    },
    output() {
      return instances.map((instance, i) => `----- instance ${i} (port ${ports[i]}) -----\n${instance.output}`).join('\n');
    },
    sql: (text, values) => database.sql(text, values),
    close() {
      closing ??= (async () => {
        await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
        await proxy.close();
        await telegram.close();
        await sandbox.close();
        await database.drop();
        await rm(dir, { recursive: true, force: true });
        await turn.end();
      })();
      return closing;
    },
  };
}

/** The demo reseller settles a Pending purchase on its first status check, not on a clock. */
export const settlesOnFirstCheck: SandboxOptions = { reseller: { settleAfterChecks: 1, settleAfterMs: 3_600_000 } };

/**
 * A started lab with `count` users, each stored with the demo reseller account connected
 * (`seed`), closed when the test ends.
 */
export async function openSeededFleet(
  count: number,
  options: FleetOptions & { firstName?: string } = {},
): Promise<{ fleet: Fleet; users: EmulatedUser[] }> {
  const fleet = await openFleet(options);
  onTestFinished(() => fleet.close());
  const firstName = options.firstName ?? 'Pembeli';
  const users = Array.from({ length: count }, (_, i) => fleet.telegram.createUser({ firstName: `${firstName} ${i}`, languageCode: 'id' }));
  await fleet.seed(users);
  await fleet.start();
  return { fleet, users };
}

/**
 * Resolves once the fleet has nothing left to do or say: no open transaction, no queued notice
 * and no stored update left unhandled (a dead instance's are replayed once their lease runs out)
 * in the database. A final status and its notices commit together, so no notice can come after this.
 * Checked again at each change of those tables (a trigger of the test's own database notifies a
 * listening connection), not on a timer.
 */
export async function quiet(fleet: Fleet, timeoutMs = 30_000): Promise<void> {
  const client = new pg.Client({ connectionString: fleet.databaseUrl });
  await client.connect();
  let timer: NodeJS.Timeout | undefined;
  try {
    await client.query(
      `CREATE OR REPLACE FUNCTION fleet_test_changed() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN PERFORM pg_notify('fleet_test', TG_TABLE_NAME); RETURN NULL; END $$`,
    );
    for (const table of ['transactions', 'outbox', 'inbox'])
      await client.query(
        `CREATE OR REPLACE TRIGGER fleet_test_${table} AFTER INSERT OR UPDATE OR DELETE ON ${table}
         FOR EACH STATEMENT EXECUTE FUNCTION fleet_test_changed()`,
      );
    await client.query('LISTEN fleet_test');
    let changed = () => undefined as void;
    client.on('notification', () => changed());
    let state: { open: number; queued: number; unhandled: number } | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`after ${timeoutMs} ms still ${JSON.stringify(state)}\n${fleet.output().slice(-20_000)}`)),
        timeoutMs,
      );
    });
    for (;;) {
      // Armed before the read: a change during it wakes the next check.
      const next = new Promise<void>((resolve) => (changed = resolve));
      [state] = (
        await client.query<{ open: number; queued: number; unhandled: number }>(
          `SELECT (SELECT count(*)::int FROM transactions WHERE NOT final) AS open, (SELECT count(*)::int FROM outbox) AS queued,
                  (SELECT count(*)::int FROM inbox WHERE NOT done) AS unhandled`,
        )
      ).rows;
      if (state?.open === 0 && state.queued === 0 && state.unhandled === 0) return;
      await Promise.race([next, expired]);
    }
  } finally {
    clearTimeout(timer);
    await client.end();
  }
}

/** The purchase summary's confirm button. */
export const confirm = '✅ Konfirmasi';

/** A user's phone number: unique last four digits per user, never ending 0000 (fails) or 9999 (stays Pending). */
export const targetOf = (index: number) => `0812${String(70_000_000 + index * 10 + 1)}`;

/** The text a message had when it was sent (a message edited later keeps its first version in `history`). */
export const firstText = (message: EmulatedMessage) => {
  const first = message.history[0] ?? message.message;
  return first.text ?? first.caption ?? '';
};

/**
 * The messages that tell a user a purchase settled: the one-line ping replying to the "in process"
 * message, or the receipt sent as a new message when there was no message to edit. Messages edited
 * into a receipt later (the "sending…" message) are not new notices.
 */
export const settlementNotices = (fleet: Fleet, user: EmulatedUser) =>
  fleet.telegram.botMessages(user).filter((message) => /sukses/i.test(firstText(message)));

/** For a failure's message: each message's id, how it was made, when, and its first and last text. */
export const describeMessages = (messages: readonly EmulatedMessage[]) =>
  messages
    .map(
      (m) =>
        `\n  #${m.messageId} ${m.method ?? '?'} at ${m.sentAt}${m.editedAt ? ` edited ${m.editedAt}` : ''}: ${JSON.stringify(firstText(m).slice(0, 120))} -> ${JSON.stringify((m.text ?? '').slice(0, 120))}`,
    )
    .join('');

/**
 * Whether a user was shown their purchase settled: a settlement notice, or the "in process" message
 * edited into the receipt by the purchase's own flow (a purchase handled again after an
 * interruption may learn its outcome on the spot: then no separate notice is due).
 */
export const toldSettled = (fleet: Fleet, user: EmulatedUser) =>
  fleet.telegram.botMessages(user).some((message) => /sukses/i.test(message.text ?? ''));

/** Messages of the bot in a chat whose first version starts with `prefix`, in the order the chat shows them. */
export const answersStarting = (fleet: Fleet, user: EmulatedUser, prefix: string) =>
  fleet.telegram.botMessages(user).filter((message) => firstText(message).startsWith(prefix));

/**
 * Every user bought once and the provider settled each Sukses, with one settlement notice each
 * (`exactly`) or at most one (`atMost`: where the "in process" message itself became the receipt).
 */
export async function expectSettledOnceEach(fleet: Fleet, users: readonly EmulatedUser[], notices: 'exactly' | 'atMost'): Promise<void> {
  await expectOnePurchaseEach(fleet, users);
  expect(fleet.sandbox.reseller.transactions().filter((tx) => tx.status !== 'Sukses')).toEqual([]);
  const wrong = users.flatMap((user, index) => {
    const got = settlementNotices(fleet, user);
    return got.length === 1 || (notices === 'atMost' && got.length === 0)
      ? []
      : [`user ${index}: ${got.length} settlement notices${describeMessages(got)}`];
  });
  expect(wrong).toEqual([]);
}

/** Purchases the provider received per target; more than one for a target is a double purchase. */
function purchasesByTarget(fleet: Fleet): Map<string, string[]> {
  const byTarget = new Map<string, string[]>();
  for (const tx of fleet.sandbox.reseller.transactions().filter((t) => t.apiId === resellerDemoAccounts.main.apiId)) {
    byTarget.set(tx.target, [...(byTarget.get(tx.target) ?? []), tx.refId]);
  }
  return byTarget;
}

/** One confirmation per user, and the provider charged each once: one transaction per user's number. */
export async function expectOnePurchaseEach(fleet: Fleet, users: readonly EmulatedUser[]): Promise<void> {
  expect(await fleet.sql('SELECT count(*)::int AS confirmations FROM confirmations')).toEqual([{ confirmations: users.length }]);
  const purchases = purchasesByTarget(fleet);
  expect(
    [...purchases].filter(([, refIds]) => refIds.length > 1),
    'bought more than once',
  ).toEqual([]);
  expect([...purchases.keys()].sort()).toEqual(users.map((_, i) => targetOf(i)).sort());
}

/**
 * Each user asks for TSEL10 to their number (`targetOf`) and taps Confirm on the summary `taps`
 * times (2: a double tap); resolves once every tap is sent.
 */
export async function confirmPurchases(fleet: Fleet, users: readonly EmulatedUser[], taps = 1): Promise<void> {
  await Promise.all(
    users.map(async (user, index) => {
      const summary = await fleet.telegram.waitForBotMessage(user, {
        after: user.send(`/beli TSEL10 ${targetOf(index)}`),
        where: (m) => m.buttons.flat().includes(confirm),
        timeoutMs: 90_000,
        message: `no purchase summary for user ${index}`,
      });
      for (let tap = 0; tap < taps; tap++) user.tap(summary, confirm);
    }),
  );
}

/** How many requests about purchases (create or status) the provider received. */
export const purchaseRequests = (fleet: Fleet) => fleet.sandbox.received.filter((r) => r.path === '/transaction').length;

/** Resolves once every user was shown their purchase settled (`toldSettled`); fails naming who was not, with the fleet's output. */
export async function everyoneToldSettled(fleet: Fleet, users: readonly EmulatedUser[], timeoutMs: number): Promise<void> {
  await until(
    () => users.every((user) => toldSettled(fleet, user)),
    timeoutMs,
    () =>
      `users not told their purchase settled: ${users.flatMap((u, i) => (toldSettled(fleet, u) ? [] : [i])).join(', ')}\n` +
      fleet.output().slice(-30_000),
  );
}
