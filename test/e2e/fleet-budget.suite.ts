/**
 * The connection budget README "Scaling out" documents: four instances with the default
 * DATABASE_POOL_SIZE (20) fit a server with a default installation's max_connections (100, 3 kept
 * for superusers). Proven on a server of the test's own (the machine's shared one has other
 * tests' connections coming and going), under a burst that makes every instance use its share.
 */
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { privatePostgresAvailable, startPrivatePostgres } from '../helpers/private-postgres.ts';
import { openSeededFleet, postgres } from './fleet-lab.ts';

const available = postgres === true ? privatePostgresAvailable() : postgres;

describe('four instances on a default PostgreSQL server', () => {
  if (available !== true) {
    if (process.env.CI === 'true' || process.env.KIOSBOT_REQUIRE_POSTGRES === '1')
      throw new Error(`PostgreSQL is required here, but ${available}`);
    it.skip(`skipped: ${available}`, () => undefined);
    return;
  }

  it('with the default budget each, a burst of 200 users is answered once each and no connection is refused (max_connections 100)', async () => {
    const server = await startPrivatePostgres();
    onTestFinished(() => server.stop());
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    onTestFinished(() => admin.end());
    expect((await admin.query<{ max_connections: string }>('SHOW max_connections')).rows[0]?.max_connections).toBe('100');

    // Telegram's own most webhook connections at once: the burst reaches the instances together.
    const { fleet, users } = await openSeededFleet(200, {
      instances: 4,
      serverUrl: server.url,
      webhookConnections: 100,
      env: { CLAIM_LEASE_SECONDS: '120' },
      firstName: 'Pemilik',
    });
    const { telegram, sandbox } = fleet;
    // A slow balance answer keeps each chat's lock (a connection) taken for two seconds.
    sandbox.inject({ service: 'reseller', path: '/cek-saldo', times: Infinity, fault: { kind: 'latency', ms: 2000 } });

    const answered = (user: (typeof users)[number]) => telegram.botMessages(user).filter((m) => m.text?.startsWith('💰 Saldo')).length;
    const answeredUsers = () => users.filter((user) => answered(user) >= 1).length;
    const connections = async () =>
      (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'kiosbot %'`)).rows[0]
        ?.n ?? 0;
    for (const user of users) user.send('/saldo');
    // The connections are counted each time more users were answered (the others' balance calls,
    // each holding its chat's lock, are on their way then): progress, not a clock, paces the count.
    let peak = 0;
    for (let seen = 0; seen < users.length;) {
      await telegram.waitFor(() => answeredUsers() > seen, {
        timeoutMs: 120_000,
        message: `${answeredUsers()} of ${users.length} answered\n${fleet.output().slice(-20_000)}`,
      });
      seen = answeredUsers();
      peak = Math.max(peak, await connections());
    }

    expect(users.filter((user) => answered(user) !== 1)).toEqual([]);
    expect(fleet.output()).not.toContain('too many clients');
    expect(peak, 'connections of the four instances at the peak').toBeLessThanOrEqual(4 * 20);
    // The burst made the instances use their budgets (else this proves nothing).
    expect(peak, 'connections of the four instances at the peak').toBeGreaterThan(30);
    console.info(`budget: peak ${peak} connections of 4 instances (budget 80, server 100)`);
  }, 420_000);
});
