/**
 * The invariants issue 14 asks both engines to keep (DESIGN invariants 1-3), and on PostgreSQL
 * across instances: each "instance" is an engine with its own connection pool on one database.
 */
import { expect, it } from 'vitest';
import type { StoreEngine } from '../../src/store/contract.ts';
import { sealCredential } from '../../src/store/records/credentials.ts';
import { sealConversation } from '../../src/store/records/conversations.ts';
import { migratePg, pgMigrations } from '../../src/store/pg/migrate.ts';
import { describeEngines, quietPool } from './contract/harness.ts';
import { createClock, purchase, testVault } from './helpers.ts';

const start = '2026-03-01T08:00:00.000Z';
const lease = (owner: string) => ({ owner, ms: 30_000 });
const notice = (chatId: number) => ({ chatId, kind: 'final', payload: { chatId } });
const telegramLimits = { perSecond: 30, perChatMs: 1000, perGroupPerMinute: 20 };

/**
 * Every chat asks for `rounds` messages, a round at a time, all from `fromMs`, through `engines`
 * (taking turns), and the instants are checked: none before `fromMs`; the first round packed into
 * consecutive slots (no slot wasted); overall no 1,000 ms with more than 30; 1 s between two to a
 * chat, 3 s between two to a group (20 a minute).
 */
async function reserveAndCheck(engines: readonly StoreEngine[], chats: readonly number[], rounds: number, fromMs: number) {
  const got: Array<{ chatId: number; at: number }> = [];
  for (let round = 0; round < rounds; round++) {
    const reserved = await Promise.all(
      chats.map(async (chatId, n) => ({
        chatId,
        at: await engines[n % engines.length]!.sendSlots.reserve(chatId, fromMs, telegramLimits),
      })),
    );
    if (round === 0) expect(Math.max(...reserved.map((r) => r.at))).toBe(fromMs + Math.ceil(((chats.length - 1) * 1000) / 30));
    got.push(...reserved);
  }
  const times = got.map((g) => g.at).sort((a, b) => a - b);
  expect(times[0]).toBe(fromMs);
  expect(new Set(times).size, 'one message per slot').toBe(times.length);
  for (let i = 0; i + 30 < times.length; i++)
    expect(times[i + 30]! - times[i]!, `31 messages within a second from ${times[i]}`).toBeGreaterThanOrEqual(1000);
  for (const chatId of chats) {
    const mine = got.filter((g) => g.chatId === chatId).map((g) => g.at);
    expect(mine).toHaveLength(rounds);
    for (let i = 1; i < mine.length; i++)
      expect(mine[i]! - mine[i - 1]!, `chat ${chatId}`).toBeGreaterThanOrEqual(chatId < 0 ? 3000 : 1000);
  }
}

describeEngines('store invariants', (suite) => {
  it('a confirmation id makes one set of transactions, also when callers race it', async () => {
    const store = await suite.open(createClock(start).now);
    const tap = (n: number) => store.transactions.createMany([purchase(`A${n}`), purchase(`B${n}`)], { confirmationId: 'confirm-1' });
    const results = await Promise.allSettled([tap(1), tap(2), tap(3)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'duplicate' });
    const winner = await store.transactions.confirmation('confirm-1');
    expect(winner).toHaveLength(2);
    expect((await store.transactions.listOpen()).map((tx) => tx.refId).sort()).toEqual([...winner!].sort());
    await expect(tap(4)).rejects.toMatchObject({ code: 'duplicate' });
  });

  it('a confirmation whose refs clash stores nothing, and its id stays free', async () => {
    const store = await suite.open(createClock(start).now);
    await store.transactions.create(purchase('TAKEN'));
    await expect(store.transactions.createMany([purchase('NEW'), purchase('TAKEN')], { confirmationId: 'c' })).rejects.toMatchObject({
      code: 'duplicate',
    });
    expect(await store.transactions.find('NEW')).toBeUndefined();
    expect(await store.transactions.confirmation('c')).toBeUndefined();
    await store.transactions.createMany([purchase('NEW')], { confirmationId: 'c' });
    expect(await store.transactions.confirmation('c')).toEqual(['NEW']);
  });

  it('a settlement and its notices are one step: racing settlements notify once, a failing notice keeps it open', async () => {
    const store = await suite.open(createClock(start).now);
    await store.transactions.create(purchase('R1'));
    await expect(
      store.transactions.settle('R1', { status: 'Sukses' }, { notify: [notice(42), { chatId: 1.5, kind: 'bad', payload: {} }] }),
    ).rejects.toMatchObject({ code: 'invalid' });
    expect(await store.transactions.get('R1')).toMatchObject({ status: 'Created' });
    expect(await store.outbox.size()).toBe(0);

    const results = await Promise.all(
      ['Sukses', 'Gagal', 'Sukses'].map((status) => store.transactions.settle('R1', { status }, { notify: [notice(42), notice(-100)] })),
    );
    const settled = results.filter((result) => result !== undefined);
    expect(settled).toHaveLength(1);
    expect(await store.transactions.find('R1')).toMatchObject({ status: settled[0]!.status, notified: true });
    expect((await store.outbox.list()).map((item) => item.chatId).sort()).toEqual([-100, 42]);
  });

  it('a due outbox item is claimed by one owner until its lease runs out or the owner is done', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    const a = await store.outbox.enqueue(notice(1));
    const b = await store.outbox.enqueue(notice(2));
    await store.outbox.enqueue({ ...notice(3), notBefore: '2026-03-01T09:00:00.000Z' });
    expect((await store.outbox.claimDue(clock.now(), { limit: 1, lease: lease('x') })).map((item) => item.id)).toEqual([a.id]);
    expect((await store.outbox.claimDue(clock.now(), { limit: 10, lease: lease('y') })).map((item) => item.id)).toEqual([b.id]);
    expect(await store.outbox.claimDue(clock.now(), { limit: 10, lease: lease('z') })).toEqual([]);
    // x retries later: its update ends the claim; y dies: its lease runs out.
    await store.outbox.update(a.id, { attempts: 1 });
    clock.advance(30_000);
    expect((await store.outbox.claimDue(clock.now(), { limit: 10, lease: lease('z') })).map((item) => item.id)).toEqual([a.id, b.id]);
  });

  it('a due transaction check is claimed by one owner until its lease runs out or the check is recorded', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    await store.transactions.create(purchase('T1'));
    await store.transactions.create(purchase('T2', { userId: 7 }));
    const nowMs = clock.now().getTime();
    const first = await store.transactions.claimDue(nowMs, { limit: 10, lease: lease('x') });
    expect(first.map((tx) => tx.refId).sort()).toEqual(['T1', 'T2']);
    expect(await store.transactions.claimDue(nowMs, { limit: 10, lease: lease('y') })).toEqual([]);
    await store.transactions.update('T1', { status: 'Pending', checks: 1 });
    expect((await store.transactions.claimDue(nowMs, { limit: 10, lease: lease('y') })).map((tx) => tx.refId)).toEqual(['T1']);
    expect((await store.transactions.claimDue(nowMs + 30_000, { limit: 10, lease: lease('y') })).map((tx) => tx.refId).sort()).toEqual([
      'T1',
      'T2',
    ]);
  });

  it("a check that ended without a write lets its owner's claim go; another owner's release changes nothing", async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    await store.transactions.create(purchase('T1'));
    const nowMs = clock.now().getTime();
    expect((await store.transactions.claimDue(nowMs, { limit: 10, lease: lease('x') })).map((tx) => tx.refId)).toEqual(['T1']);
    await store.transactions.releaseClaim('T1', 'y');
    expect(await store.transactions.claimDue(nowMs, { limit: 10, lease: lease('y') })).toEqual([]);
    await store.transactions.releaseClaim('T1', 'x');
    expect((await store.transactions.claimDue(nowMs, { limit: 10, lease: lease('y') })).map((tx) => tx.refId)).toEqual(['T1']);
  });

  it('slow is not dead: claims renewed by their live holder stay its own however long its work runs; a stopped holder loses them, and its fenced writes are refused', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    const sealed = (id: number) => ({ id, sealed: `sealed-${id}` });
    const slow = lease('slow:1');
    await store.inbox.add([sealed(1)], { lease: slow });
    await store.outbox.enqueue(notice(7));
    expect(await store.outbox.claimDue(clock.now(), { limit: 10, lease: slow })).toHaveLength(1);
    await store.transactions.create(purchase('T1', { createdAt: start }));
    expect(await store.transactions.claimDue(clock.now().getTime(), { limit: 10, lease: slow })).toHaveLength(1);
    const others = async () => ({
      updates: (await store.inbox.claimForReplay({ limit: 10, lease: lease('other:1'), maxAttempts: 5 })).updates.map((u) => u.id),
      outbox: (await store.outbox.claimDue(clock.now(), { limit: 10, lease: lease('other:1') })).length,
      checks: (await store.transactions.claimDue(clock.now().getTime(), { limit: 10, lease: lease('other:1') })).length,
    });
    // The work runs four leases long; its holder renews every third of a lease.
    for (let beat = 0; beat < 12; beat++) {
      clock.advance(10_000);
      await store.renewLeases(slow);
      expect(await others()).toEqual({ updates: [], outbox: 0, checks: 0 });
    }
    expect(await store.inbox.holds(1, 'slow:1')).toBe(true);
    // The holder stops renewing (paused): after one lease, another instance takes everything.
    clock.advance(30_000);
    expect(await others()).toEqual({ updates: [1], outbox: 1, checks: 1 });
    // The woken holder's done mark under its old token changes nothing; the new holder's lands.
    expect(await store.inbox.holds(1, 'slow:1')).toBe(false);
    expect(await store.inbox.markDone(1, 'slow:1')).toBe(false);
    expect(await store.inbox.pendingIds()).toEqual([1]);
    expect(await store.inbox.markDone(1, 'other:1')).toBe(true);
    expect(await store.inbox.pendingIds()).toEqual([]);
  });

  it('per-chat order: an update waits only for an earlier open update of its own chat', async () => {
    const store = await suite.open(createClock(start).now);
    await store.inbox.add([
      { id: 10, sealed: 'sealed-10', chatId: 5 },
      { id: 11, sealed: 'sealed-11', chatId: 6 },
      { id: 12, sealed: 'sealed-12', chatId: 5 },
    ]);
    expect(await store.inbox.earlierOpen(5, 12)).toBe(true);
    expect(await store.inbox.earlierOpen(5, 10)).toBe(false);
    expect(await store.inbox.earlierOpen(6, 11)).toBe(false);
    await store.inbox.markDone(10);
    expect(await store.inbox.earlierOpen(5, 12)).toBe(false);
  });

  it('a stored update is replayed only when its handler is gone: a lease held keeps it, attempts are counted, and it is given up after the last', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    const sealed = (id: number) => ({ id, sealed: `sealed-${id}` });
    expect(await store.inbox.add([sealed(2), sealed(1)], { lease: lease('handler') })).toEqual([1, 2]);
    expect(await store.inbox.add([sealed(3)])).toEqual([3]);
    const replay = (owner: string) => store.inbox.claimForReplay({ limit: 10, lease: lease(owner), maxAttempts: 2 });

    // 1 and 2 are being handled; 3 has no handler.
    expect(await replay('r1')).toEqual({ updates: [sealed(3)], givenUp: [] });
    expect(await replay('r2')).toEqual({ updates: [], givenUp: [] });
    await store.inbox.markDone(1);
    // The handler died: once its lease ran out, 2 is claimed; so is 3, whose replayer died too.
    clock.advance(30_000);
    expect(await replay('r3')).toEqual({ updates: [sealed(2), sealed(3)], givenUp: [] });
    clock.advance(30_000);
    // 3 was replayed twice already (each time its replayer died): given up, marked done.
    expect(await replay('r4')).toEqual({ updates: [sealed(2)], givenUp: [3] });
    await store.inbox.markDone(2);
    clock.advance(30_000);
    expect(await replay('r5')).toEqual({ updates: [], givenUp: [] });
    expect(await store.inbox.pendingIds()).toEqual([]);
  });

  it('done updates are forgotten by age and count, pending ones never, and a kept one still refuses its duplicate', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    for (let id = 1; id <= 5; id++) {
      await store.inbox.add([{ id, sealed: `s${id}` }]);
      clock.advance(10_000);
    }
    for (const id of [1, 2, 3, 4]) await store.inbox.markDone(id);
    // Now +50 s: 1 and 2 were received more than 25 s ago; of the done ones only the newest (4) is kept by count.
    await store.inbox.pruneDone({ maxAgeMs: 25_000, maxCount: 1 });
    expect(await Promise.all([1, 2, 3, 4, 5].map((id) => store.inbox.has(id)))).toEqual([false, false, false, true, true]);
    expect(await store.inbox.pendingIds()).toEqual([5]);
    expect(await store.inbox.add([{ id: 4, sealed: 'again' }])).toEqual([]);
  });

  it("send slots keep Telegram's limits: 30 a second overall, 1 s per chat, 20 a minute per group, and waste no slot", async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    const chats = [...Array.from({ length: 36 }, (_, n) => 100 + n), -1001, -1002, -1003, -1004];
    await reserveAndCheck([store], chats, 3, clock.now().getTime());
    // Later asks come after the earlier reservations, never before `atMs`.
    const later = clock.now().getTime() + 60_000;
    expect(await store.sendSlots.reserve(100, later, telegramLimits)).toBe(later);
    // Two minutes on, what went before is forgotten: the first slot is free again for any chat.
    const muchLater = later + 120_000;
    // Asked at once, the two take turns in either order: between them, the first two slots.
    const slots = await Promise.all([
      store.sendSlots.reserve(100, muchLater, telegramLimits),
      store.sendSlots.reserve(101, muchLater, telegramLimits),
    ]);
    expect(slots.sort((a, b) => a - b)).toEqual([muchLater, muchLater + 34]);
    if (suite.kind === 'postgres')
      expect(await suite.sql('SELECT chat_id FROM chat_sends ORDER BY chat_id')).toEqual([{ chat_id: '100' }, { chat_id: '101' }]);
  });

  it("one chat's work runs one at a time, in the order asked; other chats meanwhile; a failure does not block the next", async () => {
    const store = await suite.open(createClock(start).now);
    const events: string[] = [];
    let inside = 0;
    let most = 0;
    // Chat 8's work is not held back by chat 7's queue: chat 7's first step waits for it.
    let otherChatRan!: () => void;
    const otherChat = new Promise<void>((resolve) => (otherChatRan = resolve));
    const step =
      (name: string, fail = false) =>
      async () => {
        inside += 1;
        most = Math.max(most, inside);
        events.push(`${name} in`);
        if (name === 'a') await otherChat;
        // Real round trips to the engine while the lock is held.
        for (let i = 0; i < 3; i++) await store.users.get(1);
        events.push(`${name} out`);
        inside -= 1;
        if (fail) throw new Error(`${name} failed`);
        return name;
      };
    const results = await Promise.allSettled([
      store.chatLocks.run(7, step('a')),
      store.chatLocks.run(7, step('b', true)),
      store.chatLocks.run(7, step('c')),
      store.chatLocks.run(8, () => Promise.resolve(otherChatRan())),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(most).toBe(1);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
  });
});

describeEngines(
  'store invariants across instances',
  (suite) => {
    it('two instances racing the same confirmation ids make one set each', async () => {
      const now = createClock(start).now;
      const [one, two] = [await suite.open(now), await suite.open(now)];
      for (let round = 0; round < 20; round++) {
        const confirmationId = `confirm-${round}`;
        const results = await Promise.allSettled(
          [one, two].map((store, i) =>
            store.transactions.createMany([purchase(`R${round}-${i}-a`), purchase(`R${round}-${i}-b`)], { confirmationId }),
          ),
        );
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      }
      const [counts] = await suite.sql<{ txs: string; confirmations: string }>(
        'SELECT (SELECT count(*) FROM transactions) AS txs, (SELECT count(*) FROM confirmations) AS confirmations',
      );
      expect(counts).toEqual({ txs: '40', confirmations: '20' });
    });

    it('the ref id is committed when create resolves: another instance sees it before any provider call', async () => {
      const now = createClock(start).now;
      const [one, two] = [await suite.open(now), await suite.open(now)];
      await one.transactions.createMany([purchase('REF-1')], { confirmationId: 'c' });
      expect(await two.transactions.get('REF-1')).toMatchObject({ status: 'Created' });
      expect(await two.transactions.confirmation('c')).toEqual(['REF-1']);
    });

    it('two instances settling one transaction queue its notices once', async () => {
      const now = createClock(start).now;
      const [one, two] = [await suite.open(now), await suite.open(now)];
      for (let i = 0; i < 10; i++) await one.transactions.create(purchase(`S${i}`));
      for (let i = 0; i < 10; i++) {
        const results = await Promise.all(
          [one, two].map((store) => store.transactions.settle(`S${i}`, { status: 'Sukses' }, { notify: [notice(42)] })),
        );
        expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      }
      expect(await one.outbox.size()).toBe(10);
    });

    it('two claimers never claim the same due row (outbox and transaction checks)', async () => {
      const clock = createClock(start);
      const [one, two] = [await suite.open(clock.now), await suite.open(clock.now)];
      for (let i = 0; i < 60; i++) {
        await one.outbox.enqueue(notice(i));
        await one.transactions.create(purchase(`C${i}`, { userId: i }));
      }
      const at = clock.now();
      const outboxClaims: string[] = [];
      const txClaims: string[] = [];
      for (let round = 0; round < 4; round++) {
        const claimed = await Promise.all(
          [one, two].flatMap((store, i) => [
            store.outbox.claimDue(at, { limit: 10, lease: lease(`w${i}`) }),
            store.outbox.claimDue(at, { limit: 10, lease: lease(`v${i}`) }),
          ]),
        );
        outboxClaims.push(...claimed.flat().map((item) => item.id));
        const checks = await Promise.all(
          [one, two, one, two].map((store, i) => store.transactions.claimDue(at.getTime(), { limit: 10, lease: lease(`w${i}`) })),
        );
        txClaims.push(...checks.flat().map((tx) => tx.refId));
      }
      expect(new Set(outboxClaims).size).toBe(outboxClaims.length);
      expect(outboxClaims).toHaveLength(60);
      expect(new Set(txClaims).size).toBe(txClaims.length);
      expect(txClaims).toHaveLength(60);
    });

    it("an instance closing while it waits for another's chat lock stops waiting and closes", async () => {
      const now = createClock(start).now;
      const [one, two] = [await suite.open(now), await suite.open(now)];
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding = () => undefined as void;
      const taken = new Promise<void>((resolve) => (holding = resolve));
      const holder = one.chatLocks.run(7, async () => {
        holding();
        await held;
      });
      await taken;
      let ran = false;
      const waiter = two.chatLocks.run(7, () => {
        ran = true;
        return Promise.resolve();
      });
      const outcome = waiter.then(
        () => 'ran',
        () => 'stopped',
      );
      await two.close();
      expect(await outcome).toBe('stopped');
      expect(ran).toBe(false);
      release();
      await holder;
    });

    it('an update delivered to two instances is stored once, without deadlock', async () => {
      const now = createClock(start).now;
      const [one, two] = [await suite.open(now), await suite.open(now)];
      // Overlapping batches in opposite orders (a deadlock, were rows locked in the order given).
      for (let round = 0; round < 5; round++) {
        const updates = Array.from({ length: 300 }, (_, i) => ({ id: 1000 * round + i, sealed: `sealed-${i}` }));
        const [a, b] = await Promise.all([one.inbox.add(updates), two.inbox.add([...updates].reverse())]);
        expect([...a, ...b].sort((x, y) => x - y)).toEqual(updates.map((update) => update.id));
      }
    });

    it('two instances moving groups between owners at once end consistent (no deadlock, one group per owner)', async () => {
      const now = createClock(start).now;
      const [one, two] = [await suite.open(now), await suite.open(now)];
      for (const id of [1, 2]) await one.users.upsert({ id, firstName: `U${id}` });
      for (let round = 0; round < 10; round++) {
        await Promise.all([
          one.groups.link({ chatId: -1, ownerId: round % 2 === 0 ? 1 : 2 }),
          two.groups.link({ chatId: -2, ownerId: round % 2 === 0 ? 2 : 1 }),
          one.groups.link({ chatId: -3, ownerId: 1 }),
        ]);
      }
      const groups = await suite.sql<{ chat_id: string; owner_id: string }>('SELECT chat_id, owner_id FROM groups ORDER BY chat_id');
      for (const id of [1, 2]) {
        const owned = groups.filter((group) => Number(group.owner_id) === id).map((group) => Number(group.chat_id));
        expect(owned.length).toBeLessThanOrEqual(1);
        expect((await one.users.get(id))?.linkedGroupId).toBe(owned[0]);
      }
    });

    it("one chat's lock holds across instances; another chat never waits for it; a dead holder lets go", async () => {
      const now = createClock(start).now;
      const [one, two] = [await suite.open(now), await suite.open(now)];
      let inside = 0;
      let most = 0;
      const work = (engine: typeof one) => async () => {
        inside += 1;
        most = Math.max(most, inside);
        for (let i = 0; i < 3; i++) await engine.users.get(1);
        inside -= 1;
      };
      await Promise.all(Array.from({ length: 10 }, (_, n) => (n % 2 ? one : two).chatLocks.run(42, work(n % 2 ? one : two))));
      expect(most).toBe(1);

      // Advisory locks granted in this test's database only (other test files use the same server).
      const heldHere = `locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      // Chat 42 held by instance one: chat 43 goes through on instance two meanwhile.
      let release!: () => void;
      const held = one.chatLocks.run(42, () => new Promise<void>((resolve) => (release = resolve)));
      await expect.poll(() => suite.sql(`SELECT 1 FROM pg_locks WHERE ${heldHere}`), { timeout: 10_000 }).toHaveLength(1);
      expect(await two.chatLocks.run(43, () => Promise.resolve('other chat'))).toBe('other chat');
      let secondRan = false;
      const second = two.chatLocks.run(42, () => Promise.resolve(void (secondRan = true)));
      // The holder's connection dies (its process was killed): the server releases the lock, the other instance goes on.
      await suite.sql(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE ${heldHere} AND pid <> pg_backend_pid()`);
      await second;
      expect(secondRan).toBe(true);
      release();
      await held;
    });

    it('two instances replaying at once claim each stored update once', async () => {
      const now = createClock(start).now;
      const [one, two] = [await suite.open(now), await suite.open(now)];
      await one.inbox.add(Array.from({ length: 60 }, (_, n) => ({ id: 1000 + n, sealed: `s${n}` })));
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, n) => (n % 2 ? one : two).inbox.claimForReplay({ limit: 15, lease: lease(`i${n}`), maxAttempts: 3 })),
      );
      const ids = claims.flatMap((claim) => claim.updates.map((update) => update.id));
      expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, n) => 1000 + n));
    });

    it("two instances reserving send slots at once keep Telegram's limits for the fleet", async () => {
      const now = createClock(start).now;
      const engines = [await suite.open(now), await suite.open(now)];
      const chats = [...Array.from({ length: 46 }, (_, n) => 500 + n), -2001, -2002, -2003, -2004];
      await reserveAndCheck(engines, chats, 2, now().getTime());
    });

    it('migrations apply once under the advisory lock, and a database a newer kiosbot migrated is refused', async () => {
      await suite.open(createClock(start).now);
      const pool = quietPool(suite.databaseUrl(), 4);
      try {
        const probe = pgMigrations.length + 1;
        const later = [...pgMigrations, { id: probe, name: 'probe', sql: 'CREATE TABLE migration_probe (id int)' }];
        const applied = await Promise.all([migratePg(pool, later), migratePg(pool, later), migratePg(pool, later)]);
        expect(applied.flat()).toEqual([probe]);
        expect(await suite.sql('SELECT id, name FROM kiosbot_migrations ORDER BY id')).toEqual([
          ...pgMigrations.map(({ id, name }) => ({ id, name })),
          { id: probe, name: 'probe' },
        ]);
        await expect(migratePg(pool)).rejects.toMatchObject({ code: 'version' });
      } finally {
        await suite.sql('DROP TABLE IF EXISTS migration_probe');
        await suite.sql('DELETE FROM kiosbot_migrations WHERE id = $1', [pgMigrations.length + 1]);
        await pool.end();
      }
    });

    it('secrets reach the database sealed only', async () => {
      const clock = createClock(start);
      const store = await suite.open(clock.now);
      const vault = testVault();
      await store.credentials.saveSealed(42, sealCredential(vault, 42, 'reseller', { apiKey: 'PLAIN-KEY-123' }, { at: clock.now() }));
      await store.conversations.writeSealed('c:42', sealConversation(vault, 'c:42', { pin: 'PLAIN-PIN-987' }));
      const [row] = await suite.sql<{ credential: string; conversation: string }>(
        `SELECT (SELECT string_agg(record::text, '') FROM credentials) AS credential, (SELECT string_agg(sealed, '') FROM conversations) AS conversation`,
      );
      // Each is there, as a vault token (`v1.<keyId>.<iv>.<tag>.<ciphertext>`, base64url parts).
      const token = /v1\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+/;
      expect(row?.credential).toMatch(token);
      expect(row?.conversation).toMatch(new RegExp(`^${token.source}$`));
      expect(`${row?.credential}${row?.conversation}`).not.toMatch(/PLAIN-KEY-123|PLAIN-PIN-987/);
    });
  },
  ['postgres'],
);
