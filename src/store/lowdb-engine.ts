/**
 * The store contract over the embedded lowdb store (store.ts): one process owns the data
 * directory, so its claims are leases kept in this process's memory, and every method is the
 * lowdb repository's own, resolved as a promise.
 */
/* eslint-disable @typescript-eslint/require-await -- lowdb reads are synchronous: `async` turns their results and throws into the contract's promises */
import { createLocalChatLocks } from './chat-locks.ts';
import type { Lease, StoreEngine } from './contract.ts';
import { createLocalSendSlots } from './send-slots.ts';
import { createInProcessSendClaims } from './send-claims.ts';
import type { Store } from './store.ts';

/** A lease table of `createLeases`. */
type Leases = ReturnType<typeof createLeases>;

/** Leases on rows of one kind, by id: a row whose lease runs is not claimed again. */
function createLeases(now: () => Date) {
  const held = new Map<string, { owner: string; until: number }>();
  let prunedAt = -Infinity;
  return {
    /** Whether `id` can be claimed at `atMs` (no lease, or one that ran out). */
    free(id: string, atMs: number, owner?: string) {
      const lease = held.get(id);
      return lease === undefined || lease.until <= atMs || lease.owner === owner;
    },
    take(ids: Iterable<string>, atMs: number, lease: Lease) {
      for (const id of ids) held.set(id, { owner: lease.owner, until: atMs + lease.ms });
    },
    end: (id: string) => held.delete(id),
    /** The owner of `id`'s lease, if it has one. */
    ownerOf: (id: string) => held.get(id)?.owner,
    /** Extends `owner`'s leases to `ms` from `atMs`. */
    renew(owner: string, atMs: number, ms: number) {
      for (const lease of held.values()) if (lease.owner === owner) lease.until = atMs + ms;
    },
    /** Forgets leases that ran out, at most once a second (`free` reads a lease's end anyway). */
    prune() {
      const at = now().getTime();
      if (at - prunedAt < 1000) return;
      prunedAt = at;
      for (const [id, lease] of held) if (lease.until <= at) held.delete(id);
    },
  };
}

/** A lowdb repository's methods `names` as the contract has them: each answers with a promise (a synchronous throw becomes a rejection). */
function promised<R extends object, K extends keyof R>(
  repo: R,
  names: readonly K[],
): { [P in K]: R[P] extends (...args: infer A) => infer T ? (...args: A) => Promise<Awaited<T>> : never } {
  const methods: Partial<Record<K, unknown>> = {};
  // Looked up at each call, as the hand-written wrappers did: a test's store may leave a repository out.
  for (const name of names) methods[name] = async (...args: unknown[]) => (repo[name] as (...args: unknown[]) => unknown).apply(repo, args);
  return methods as { [P in K]: R[P] extends (...args: infer A) => infer T ? (...args: A) => Promise<Awaited<T>> : never };
}

/** The ref ids confirmation `id` became, once the write that recorded them is on disk. */
async function confirmedRefIds(store: Store, id: string): Promise<string[] | undefined> {
  const { transactions } = store;
  // A concurrent confirm's write may still be running, and may fail (and be undone in memory).
  for (;;) {
    if (!transactions.confirmation(id)) return undefined;
    const failure = await store.flush().then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    const refIds = transactions.confirmation(id);
    if (!failure) return refIds;
    // A failed write undoes its changes: if this confirmation is gone, it never reached the disk.
    if (!refIds) throw failure.error;
    // Still there: the failed write was another one (a history file); make sure of it again.
  }
}

/** The transactions, with due checks claimed by leases in `txLeases`. */
function lowdbTransactions(store: Store, txLeases: Leases): StoreEngine['transactions'] {
  const { transactions } = store;
  return {
    create: (tx, options) => transactions.create(tx, options),
    createMany: (txs, options) => transactions.createMany(txs, options),
    confirmation: (id) => confirmedRefIds(store, id),
    get: async (refId) => transactions.get(refId),
    find: (refId) => transactions.find(refId),
    findForUser: (userId, refId) => transactions.findForUser(userId, refId),
    findByTrxId: (userId, trxId) => transactions.findByTrxId(userId, trxId),
    listOpen: async () => transactions.listOpen(),
    listByUser: (userId, options) => transactions.listByUser(userId, options),
    listByTarget: (userId, target, options) => transactions.listByTarget(userId, target, options),
    listByUserBetween: (userId, from, to) => transactions.listByUserBetween(userId, from, to),
    listCreatedSince: (since) => transactions.listCreatedSince(since),
    buyersSince: (since) => transactions.buyersSince(since),
    async update(refId, patch, options) {
      const updated = await transactions.update(refId, patch, options);
      txLeases.end(refId);
      return updated;
    },
    async settle(refId, patch, options) {
      const settled = await transactions.settle(refId, patch, options);
      txLeases.end(refId);
      return settled;
    },
    due: async (nowMs, options) => transactions.due(nowMs, options),
    async claimDue(nowMs, options) {
      txLeases.prune();
      const claimed = transactions.due(nowMs, {
        limit: options.limit,
        ...(options.room ? { room: options.room } : {}),
        skip: (refId) => !txLeases.free(refId, nowMs) || options.skip?.(refId) === true,
      });
      txLeases.take(
        claimed.map((tx) => tx.refId),
        nowMs,
        options.lease,
      );
      return claimed;
    },
    async releaseClaim(refId, owner) {
      if (txLeases.ownerOf(refId) === owner) txLeases.end(refId);
    },
    nextDueAt: async () => transactions.nextDueAt(),
  };
}

/** The wallets, as the contract has them. */
function lowdbLedger({ ledger }: Store): StoreEngine['ledger'] {
  return {
    append: (entries, options) => ledger.append(entries, options),
    balance: async (wallet) => ledger.balance(wallet),
    statement: async (wallet, options) => ledger.statement(wallet, options),
    byRef: async (wallet, refId) => ledger.byRef(wallet, refId),
    summary: async (wallet) => ledger.summary(wallet),
  };
}

/** The outbox, with items claimed by leases in `outboxLeases`. */
function lowdbOutbox({ outbox }: Store, outboxLeases: Leases, now: () => Date): StoreEngine['outbox'] {
  return {
    enqueue: (item) => outbox.enqueue(item),
    get: async (id) => outbox.get(id),
    list: async () => outbox.list(),
    listDue: async (at) => outbox.listDue(at),
    async claim(id, lease) {
      const atMs = now().getTime();
      const item = outbox.get(id);
      if (!item || !outboxLeases.free(id, atMs, lease.owner)) return undefined;
      outboxLeases.take([id], atMs, lease);
      return item;
    },
    async claimDue(at, options) {
      outboxLeases.prune();
      const atMs = at.getTime();
      const claimed = outbox
        .listDue(at)
        .filter((item) => outboxLeases.free(item.id, atMs))
        .slice(0, options.limit);
      outboxLeases.take(
        claimed.map((item) => item.id),
        atMs,
        options.lease,
      );
      return claimed;
    },
    async update(id, patch) {
      const updated = await outbox.update(id, patch);
      outboxLeases.end(id);
      return updated;
    },
    async remove(id) {
      const removed = await outbox.remove(id);
      outboxLeases.end(id);
      return removed;
    },
    size: async () => outbox.size(),
    entries: async () => outbox.entries(),
    retarget: (fromChatId, toChatId) => outbox.retarget(fromChatId, toChatId),
  };
}

/** The update inbox, with stored updates claimed by leases in `inboxLeases` (keyed by the update id as a string). */
function lowdbInbox({ inbox }: Store, inboxLeases: Leases, now: () => Date): StoreEngine['inbox'] {
  return {
    has: async (updateId) => inbox.has(updateId),
    async add(updates, options = {}) {
      const added = (await inbox.addSealed(updates)).sort((a, b) => a - b);
      if (options.lease) inboxLeases.take(added.map(String), now().getTime(), options.lease);
      return added;
    },
    async markDone(updateId, owner) {
      if (owner !== undefined && inboxLeases.ownerOf(String(updateId)) !== owner) return false;
      await inbox.markDone(updateId);
      inboxLeases.end(String(updateId));
      return true;
    },
    earlierOpen: async (chatId, updateId) => inbox.earlierOpen(chatId, updateId),
    holds: async (updateId, owner) => inboxLeases.ownerOf(String(updateId)) === owner && inbox.pendingIds().includes(updateId),
    pendingIds: async () => inbox.pendingIds(),
    pruneDone(limits) {
      inbox.pruneDone(limits);
      return inbox.flush();
    },
    async claimForReplay(options) {
      inboxLeases.prune();
      const atMs = now().getTime();
      const { entries, givenUp } = await inbox.takeSealedForReplay(options.maxAttempts, {
        limit: options.limit,
        take: (updateId) => inboxLeases.free(String(updateId), atMs),
      });
      inboxLeases.take(
        entries.map((entry) => String(entry.id)),
        atMs,
        options.lease,
      );
      return { updates: entries, givenUp };
    },
  };
}

/**
 * The contract over an open lowdb `store`. Closing the engine closes the store. `now` is the
 * store's clock (leases are measured on it).
 */
export function createLowdbEngine(store: Store, now: () => Date = () => new Date()): StoreEngine {
  const txLeases = createLeases(now);
  const outboxLeases = createLeases(now);
  const inboxLeases = createLeases(now);
  const { users, credentials, conversations, groups, gameOrders, balances, broadcasts, priceWatch } = store;

  return {
    kind: 'lowdb',
    users: {
      ...promised(users, ['get', 'upsert', 'update', 'setActive', 'list', 'count']),
      transact: (ids, change) => users.transact(ids, change),
    },
    credentials: promised(credentials, ['saveSealed', 'sealed', 'remove', 'listServices', 'countByService']),
    transactions: lowdbTransactions(store, txLeases),
    ledger: lowdbLedger(store),
    outbox: lowdbOutbox(store, outboxLeases, now),
    conversations: promised(conversations, ['readSealed', 'writeSealed', 'delete']),
    groups: promised(groups, ['link', 'migrate', 'unlink', 'get', 'byOwner']),
    gameOrders: promised(gameOrders, ['save', 'get', 'listByUser']),
    inbox: lowdbInbox(store, inboxLeases, now),
    balances: promised(balances, ['record', 'list']),
    broadcasts: promised(broadcasts, [
      'create',
      'get',
      'running',
      'runningProgress',
      'isDone',
      'progress',
      'record',
      'setProgressMessage',
      'finish',
      'unreported',
    ]),
    priceWatch: promised(priceWatch, ['get', 'save', 'retain']),
    chatLocks: createLocalChatLocks(),
    sendSlots: createLocalSendSlots(),
    sendClaims: createInProcessSendClaims(),
    async renewLeases({ owner, ms }) {
      const atMs = now().getTime();
      for (const leases of [txLeases, outboxLeases, inboxLeases]) leases.renew(owner, atMs, ms);
    },
    close: () => store.close(),
  };
}
