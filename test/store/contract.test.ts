import { expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.ts';
import { sealConversation, openConversation } from '../../src/store/records/conversations.ts';
import { openCredential, sealCredential } from '../../src/store/records/credentials.ts';
import { describeEngines } from './contract/harness.ts';
import { createClock, gameOrder, purchase, testVault } from './helpers.ts';

const start = '2026-03-01T08:00:00.000Z';
const vault = testVault();

const order = gameOrder;

describeEngines('store contract', (suite) => {
  it('users: upsert creates then refreshes, update with a notice, list and count by filter', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    expect(await store.users.upsert({ id: 7, firstName: 'Budi', locale: 'id' })).toMatchObject({ created: true, user: { active: true } });
    const again = await store.users.upsert({ id: 7, firstName: 'Budi S', username: 'budis' });
    expect(again).toMatchObject({ created: false, user: { firstName: 'Budi S', username: 'budis', locale: 'id' } });
    await store.users.upsert({ id: 3, firstName: 'Ani' });
    await store.users.setActive(3, false);
    const updated = await store.users.update(7, { alertThreshold: 50_000, id: 99 } as never, {
      notify: [{ chatId: 7, kind: 'alert', payload: { n: 1 } }],
    });
    expect(updated).toMatchObject({ id: 7, alertThreshold: 50_000 });
    expect(await store.users.update(404, { active: false }, { notify: [{ chatId: 404, kind: 'x', payload: null }] })).toBeUndefined();
    expect((await store.outbox.list()).map((item) => item.kind)).toEqual(['alert']);
    expect((await store.users.list()).map((user) => user.id)).toEqual([3, 7]);
    expect((await store.users.list({ active: true })).map((user) => user.id)).toEqual([7]);
    expect(await store.users.count({ where: (user) => user.alertThreshold !== undefined })).toBe(1);
    expect(await store.users.count()).toBe(2);
    expect(await store.users.get(3)).toMatchObject({ firstName: 'Ani', active: false });
  });

  it('users: the price watchers are listed and counted by their own filter, with the others', async () => {
    const store = await suite.open(createClock(start).now);
    for (const id of [1, 2, 3, 4]) await store.users.upsert({ id, firstName: `U${id}` });
    const watch = { brands: ['telkomsel'], group: false };
    for (const id of [2, 3, 4]) await store.users.update(id, { priceWatch: watch });
    await store.users.update(4, { priceWatch: undefined });
    await store.users.setActive(3, false);
    expect((await store.users.list({ priceWatchers: true })).map((user) => [user.id, user.priceWatch])).toEqual([
      [2, watch],
      [3, watch],
    ]);
    expect((await store.users.list({ active: true, priceWatchers: true })).map((user) => user.id)).toEqual([2]);
    expect(await store.users.count({ priceWatchers: true })).toBe(2);
    expect(await store.users.count({ active: false, priceWatchers: true })).toBe(1);
    expect(await store.users.count({ priceWatchers: true, where: (user) => user.id > 2 })).toBe(1);
  });

  it('users: transact changes several users and queues its notices in one commit; concurrent ones do not lose a change', async () => {
    const store = await suite.open(createClock(start).now);
    for (const id of [1, 2]) await store.users.upsert({ id, firstName: `U${id}` });
    const membership = { uplineId: 1, levelId: 'bronze', status: 'active' as const, joinedAt: start, requestId: 'req000001' };
    const result = await store.users.transact([1, 2, 404], (users) => ({
      patches: [
        { id: 2, patch: { membership } },
        { id: 1, patch: { alertThreshold: 5 } },
        { id: 404, patch: { alertThreshold: 1 } },
      ],
      notify: [{ chatId: 2, kind: 'downline-outcome', payload: { n: users.size } }],
      result: [...users.keys()].sort(),
    }));
    expect(result).toEqual([1, 2]);
    expect(await store.users.get(2)).toMatchObject({ membership });
    expect(await store.users.get(1)).toMatchObject({ alertThreshold: 5 });
    expect(await store.users.get(404)).toBeUndefined();
    expect((await store.outbox.list()).map((item) => [item.kind, item.payload])).toEqual([['downline-outcome', { n: 2 }]]);
    // Nothing patched: nothing written, nothing queued, the result all the same.
    expect(await store.users.transact([1], () => ({ patches: [], result: 'seen' }))).toBe('seen');
    expect(await store.outbox.size()).toBe(1);
    // Each change reads what the one before it wrote: ten at once raise the threshold ten times.
    await Promise.all(
      Array.from({ length: 10 }, () =>
        store.users.transact([1], (users) => ({
          patches: [{ id: 1, patch: { alertThreshold: (users.get(1)?.alertThreshold ?? 0) + 1 } }],
          result: undefined,
        })),
      ),
    );
    expect((await store.users.get(1))?.alertThreshold).toBe(15);
    expect((await store.users.list({ uplineId: 1 })).map((user) => user.id)).toEqual([2]);
    expect(await store.users.count({ uplineId: 1 })).toBe(1);
    expect(await store.users.count({ uplineId: 2 })).toBe(0);
  });

  it('credentials are stored sealed and open with the vault above the contract', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    const record = sealCredential(vault, 42, 'reseller', { apiId: 'R-1', apiKey: 'KEY-9f2' }, { label: 'R-1…', at: clock.now() });
    expect(record.sealed).not.toContain('KEY-9f2');
    await store.credentials.saveSealed(42, record);
    await store.credentials.saveSealed(42, sealCredential(vault, 42, 'gameshop', { apiKey: 'G' }, { at: clock.now() }));
    const stored = await store.credentials.sealed(42, 'reseller');
    expect(stored).toEqual(record);
    expect(openCredential(vault, 42, stored!)).toEqual({ apiId: 'R-1', apiKey: 'KEY-9f2' });
    expect(() => openCredential(vault, 43, stored!)).toThrow();
    expect((await store.credentials.listServices(42)).sort()).toEqual(['gameshop', 'reseller']);
    expect(await store.credentials.countByService()).toEqual({ reseller: 1, marketplace: 0, gameshop: 1 });
    expect(await store.credentials.remove(42, 'gameshop')).toBe(true);
    expect(await store.credentials.remove(42, 'gameshop')).toBe(false);
    expect(await store.credentials.sealed(42, 'gameshop')).toBeUndefined();
  });

  it('transactions: create, duplicates refused, update, settle with notices, and the history reads', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    await store.transactions.create(purchase('R1', { trxId: 'TRX-1' }));
    clock.advance(1000);
    await store.transactions.create(purchase('R2', { target: '0899' }));
    clock.advance(1000);
    await store.transactions.create(purchase('R3', { userId: 7, chatId: 7 }));
    await expect(store.transactions.create(purchase('R1'))).rejects.toMatchObject({ code: 'duplicate' });
    await expect(store.transactions.create(purchase('R4', { status: 'Sukses' }))).rejects.toBeInstanceOf(StoreError);

    expect(await store.transactions.update('R1', { status: 'Pending', checks: 1 })).toMatchObject({ status: 'Pending', checks: 1 });
    await expect(store.transactions.update('R1', { status: 'Sukses' })).rejects.toMatchObject({ code: 'invalid' });
    const settled = await store.transactions.settle(
      'R1',
      { status: 'Sukses', sn: 'SN1' },
      { notify: [{ chatId: 42, kind: 'final', payload: {} }] },
    );
    expect(settled).toMatchObject({ status: 'Sukses', sn: 'SN1', notified: true, settledAt: clock.now().toISOString() });
    expect(await store.transactions.settle('R1', { status: 'Gagal' })).toBeUndefined();
    expect(await store.transactions.update('R1', { checks: 5 })).toBeUndefined();
    expect(await store.transactions.get('R1')).toBeUndefined();
    expect(await store.transactions.find('R1')).toMatchObject({ status: 'Sukses' });
    expect(await store.transactions.findForUser(7, 'R1')).toBeUndefined();
    expect(await store.transactions.findByTrxId(42, 'trx-1')).toMatchObject({ refId: 'R1' });
    expect(await store.transactions.findByTrxId(7, 'TRX-1')).toBeUndefined();

    const refs = (txs: { refId: string }[]) => txs.map((tx) => tx.refId);
    expect(refs(await store.transactions.listOpen())).toEqual(['R2', 'R3']);
    expect(refs(await store.transactions.listByUser(42))).toEqual(['R2', 'R1']);
    expect(refs(await store.transactions.listByUser(42, { limit: 1, offset: 1 }))).toEqual(['R1']);
    expect(refs(await store.transactions.listByTarget(42, '0899'))).toEqual(['R2']);
    expect(refs(await store.transactions.listByUserBetween(42, new Date(start), new Date(Date.parse(start) + 1500)))).toEqual(['R1', 'R2']);
    expect(refs(await store.transactions.listCreatedSince(new Date(Date.parse(start) + 500)))).toEqual(['R3', 'R2']);
    await store.transactions.settle('R3', { status: 'Gagal' });
    expect([...(await store.transactions.buyersSince(new Date(start)))]).toEqual([42]);
    expect((await store.outbox.list()).map((item) => item.kind)).toEqual(['final']);
  });

  it('transactions: due and nextDueAt follow nextCheckAt', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    expect(await store.transactions.nextDueAt()).toBeUndefined();
    await store.transactions.create(purchase('A'));
    await store.transactions.create(purchase('B', { userId: 7 }));
    await store.transactions.update('A', { status: 'Pending', nextCheckAt: '2026-03-01T08:05:00.000Z' });
    expect(await store.transactions.nextDueAt()).toBe(Date.parse(start));
    expect((await store.transactions.due(Date.parse(start))).map((tx) => tx.refId)).toEqual(['B']);
    const later = Date.parse('2026-03-01T08:05:00.000Z');
    expect((await store.transactions.due(later)).map((tx) => tx.refId).sort()).toEqual(['A', 'B']);
    expect(await store.transactions.due(later, { limit: 1 })).toHaveLength(1);
  });

  it('transactions: a deferred re-check write is in effect at once and ends the claim', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    await store.transactions.create(purchase('D', { status: 'Pending' }));
    const claim = (owner: string) =>
      store.transactions
        .claimDue(clock.now().getTime(), { limit: 5, lease: { owner, ms: 600_000 } })
        .then((txs) => txs.map((tx) => tx.refId));
    expect(await claim('watcher-1')).toEqual(['D']);
    // Due again 30 s later, well inside watcher-1's 10-minute lease.
    const nextCheckAt = '2026-03-01T08:00:30.000Z';
    const updated = await store.transactions.update('D', { status: 'Pending', checks: 1, nextCheckAt }, { deferWrite: true });
    expect(updated).toMatchObject({ checks: 1, nextCheckAt });
    expect(await store.transactions.get('D')).toMatchObject({ checks: 1, nextCheckAt });
    expect(await store.transactions.nextDueAt()).toBe(Date.parse(nextCheckAt));
    clock.set(nextCheckAt);
    // The update ended watcher-1's claim: another instance takes it now.
    expect(await claim('watcher-2')).toEqual(['D']);
  });

  it('outbox: enqueue with a dedupe key, due order, update, retarget, remove', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    const first = await store.outbox.enqueue({ chatId: 1, kind: 'a', payload: { x: 1 }, dedupeKey: 'k' });
    expect(await store.outbox.enqueue({ chatId: 1, kind: 'b', payload: {}, dedupeKey: 'k' })).toEqual(first);
    clock.advance(10);
    const later = await store.outbox.enqueue({ chatId: 2, kind: 'c', payload: [1, 2], notBefore: '2026-03-01T09:00:00.000Z' });
    expect((await store.outbox.listDue(clock.now())).map((item) => item.id)).toEqual([first.id]);
    expect((await store.outbox.listDue(new Date('2026-03-01T09:00:00.000Z'))).map((item) => item.id)).toEqual([first.id, later.id]);
    expect(await store.outbox.get(later.id)).toEqual(later);
    expect(await store.outbox.update(first.id, { attempts: 2, notBefore: '2026-03-01T10:00:00.000Z' })).toMatchObject({ attempts: 2 });
    expect(await store.outbox.update('gone', { attempts: 1 })).toBeUndefined();
    expect(await store.outbox.retarget(2, -1002)).toBe(1);
    expect(await store.outbox.get(later.id)).toMatchObject({ chatId: -1002, payload: [1, 2] });
    expect((await store.outbox.entries()).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([
      { id: first.id, chatId: 1, createdAt: first.createdAt, attempts: 2, notBefore: '2026-03-01T10:00:00.000Z' },
      { id: later.id, chatId: -1002, createdAt: later.createdAt, attempts: 0, notBefore: '2026-03-01T09:00:00.000Z' },
    ]);
    expect(await store.outbox.size()).toBe(2);
    expect(await store.outbox.remove(first.id)).toBe(true);
    expect(await store.outbox.remove(first.id)).toBe(false);
    expect(await store.outbox.size()).toBe(1);
  });

  it('conversations keep sealed states only', async () => {
    const store = await suite.open(createClock(start).now);
    const sealed = sealConversation(vault, 'conv:42', { step: 2, apiKey: 'typed-secret' });
    expect(sealed).not.toContain('typed-secret');
    await store.conversations.writeSealed('conv:42', sealed);
    expect(openConversation(vault, 'conv:42', await store.conversations.readSealed('conv:42'))).toEqual({
      step: 2,
      apiKey: 'typed-secret',
    });
    await store.conversations.delete('conv:42');
    expect(await store.conversations.readSealed('conv:42')).toBeUndefined();
    await store.conversations.writeSealed('conv:1', sealed);
    await store.conversations.writeSealed('conv:1', undefined);
    expect(await store.conversations.readSealed('conv:1')).toBeUndefined();
  });

  it('groups: link moves a group and keeps the owners’ linkedGroupId in step; migrate and unlink', async () => {
    const store = await suite.open(createClock(start).now);
    await store.users.upsert({ id: 1, firstName: 'A' });
    await store.users.upsert({ id: 2, firstName: 'B' });
    await store.groups.link({ chatId: -10, ownerId: 1, title: 'Toko A' });
    expect(await store.users.get(1)).toMatchObject({ linkedGroupId: -10 });
    await store.groups.link({ chatId: -20, ownerId: 1 });
    expect(await store.groups.get(-10)).toBeUndefined();
    await store.groups.link({ chatId: -20, ownerId: 2 });
    expect((await store.users.get(1))?.linkedGroupId).toBeUndefined();
    expect(await store.users.get(2)).toMatchObject({ linkedGroupId: -20 });
    expect(await store.groups.migrate(-20, -1000020)).toBe(true);
    expect(await store.groups.migrate(-20, -1)).toBe(false);
    expect(await store.groups.byOwner(2)).toEqual([expect.objectContaining({ chatId: -1000020, ownerId: 2 })]);
    expect(await store.users.get(2)).toMatchObject({ linkedGroupId: -1000020 });
    expect(await store.groups.unlink(-1000020)).toBe(true);
    expect(await store.groups.unlink(-1000020)).toBe(false);
    expect((await store.users.get(2))?.linkedGroupId).toBeUndefined();
  });

  it('game orders: saved with their reminder in one step, listed newest first', async () => {
    const store = await suite.open(createClock(start).now);
    const saved = await store.gameOrders.save(order('O1', '2026-03-01T08:00:00.000Z'), {
      notify: [{ chatId: 42, kind: 'reminder', payload: {}, notBefore: '2026-03-01T08:50:00.000Z' }],
    });
    expect(saved.reminderQueued).toBe(true);
    await store.gameOrders.save(order('O2', '2026-03-01T08:01:00.000Z'));
    expect(await store.gameOrders.get('O1')).toEqual(saved);
    expect((await store.gameOrders.listByUser(42)).map((o) => o.orderId)).toEqual(['O2', 'O1']);
    expect((await store.outbox.list()).map((item) => item.kind)).toEqual(['reminder']);
  });

  it('inbox: stores each update once, marks done', async () => {
    const store = await suite.open(createClock(start).now);
    expect(
      await store.inbox.add([
        { id: 5, sealed: 's5' },
        { id: 4, sealed: 's4' },
        { id: 5, sealed: 's5' },
      ]),
    ).toEqual([4, 5]);
    expect(
      await store.inbox.add([
        { id: 5, sealed: 's5' },
        { id: 6, sealed: 's6' },
      ]),
    ).toEqual([6]);
    expect(await store.inbox.has(4)).toBe(true);
    expect(await store.inbox.has(9)).toBe(false);
    await store.inbox.markDone(5);
    expect(await store.inbox.pendingIds()).toEqual([4, 6]);
  });

  it('balances: only changes are kept, listed by range', async () => {
    const clock = createClock(start);
    const store = await suite.open(clock.now);
    expect(await store.balances.record(42, 'R-1', 100_000)).toBe(true);
    clock.advance(60_000);
    expect(await store.balances.record(42, 'R-1', 100_000)).toBe(false);
    expect(await store.balances.record(42, 'R-1', 90_000)).toBe(true);
    expect(await store.balances.list(42)).toEqual([
      { at: start, balance: 100_000, account: 'R-1' },
      { at: '2026-03-01T08:01:00.000Z', balance: 90_000, account: 'R-1' },
    ]);
    expect(await store.balances.list(42, { from: new Date('2026-03-01T08:00:30Z'), to: new Date('2026-03-02T00:00:00Z') })).toHaveLength(1);
  });

  it('broadcasts: one running job, progress by position, finish', async () => {
    const store = await suite.open(createClock(start).now);
    const job = { id: 'B1', adminId: 1, fromChatId: 1, messageId: 5, audience: { kind: 'all' as const }, recipients: [10, 11, 12] };
    await store.broadcasts.create(job);
    await expect(store.broadcasts.create({ ...job, id: 'B2' })).rejects.toMatchObject({ code: 'duplicate' });
    await store.broadcasts.record('B1', 1, 'sent');
    await store.broadcasts.record('B1', 1, 'sent');
    await store.broadcasts.record('B1', 0, 'blocked');
    expect(await store.broadcasts.isDone('B1', 1)).toBe(true);
    expect(await store.broadcasts.isDone('B1', 2)).toBe(false);
    await store.broadcasts.setProgressMessage('B1', 77);
    expect(await store.broadcasts.progress('B1')).toMatchObject({ next: 2, sent: 1, blocked: 1, total: 3, progressMessageId: 77 });
    expect((await store.broadcasts.running())?.id).toBe('B1');
    expect(await store.broadcasts.finish('B1', 'done')).toMatchObject({ status: 'done', finishedAt: start });
    expect(await store.broadcasts.running()).toBeUndefined();
    await store.broadcasts.create({ ...job, id: 'B2' });
  });

  it("broadcasts: a job's end queues its final report in the same write, once however often it is written", async () => {
    const store = await suite.open(createClock(start).now);
    await store.broadcasts.create({ id: 'B1', adminId: 1, fromChatId: 1, messageId: 5, audience: { kind: 'all' }, recipients: [10] });
    const report = [{ chatId: 1, kind: 'broadcast-report', payload: { type: 'send', text: 'Siaran selesai' } }];
    expect(await store.broadcasts.finish('B1', 'done', report)).toMatchObject({ status: 'done', reportedAt: start });
    // A retry of the same end (its first answer lost) queues nothing more.
    await store.broadcasts.finish('B1', 'done', report);
    expect((await store.outbox.list()).map((item) => item.kind)).toEqual(['broadcast-report']);
    // A job cancelled first gets its report with the runner's end.
    await store.broadcasts.create({ id: 'B2', adminId: 1, fromChatId: 1, messageId: 6, audience: { kind: 'all' }, recipients: [10] });
    await store.broadcasts.finish('B2', 'cancelled');
    expect(await store.broadcasts.unreported()).toMatchObject({ id: 'B2', status: 'cancelled' });
    expect(await store.broadcasts.finish('B2', 'cancelled', report)).toMatchObject({ status: 'cancelled', reportedAt: start });
    expect(await store.outbox.list()).toHaveLength(2);
    expect(await store.broadcasts.unreported()).toBeUndefined();
  });

  it('price watch: snapshots saved, read back, retained by key', async () => {
    const store = await suite.open(createClock(start).now);
    const snapshot = { at: start, products: [{ code: 'TSEL10', name: 'Telkomsel 10', price: 10250, status: 'active' }] };
    await store.priceWatch.save('a', snapshot);
    await store.priceWatch.save('b', { at: start, products: [] });
    expect(await store.priceWatch.get('a')).toEqual(snapshot);
    await store.priceWatch.retain(new Set(['b']));
    expect(await store.priceWatch.get('a')).toBeUndefined();
    expect(await store.priceWatch.get('b')).toEqual({ at: start, products: [] });
  });
});
