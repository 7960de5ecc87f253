/**
 * When each open transaction's next check is due, kept sorted so the settlement watcher reads only
 * what is due: per account, the account's transactions by due time; over the accounts, each
 * account by its earliest due time. Asking "what is due now" costs the accounts that have due
 * transactions, never a pass over every open one; nothing due costs one comparison.
 */

interface Entry {
  at: number;
  key: string;
}

/** An array kept in (at, key) order; insert and remove by binary search. */
class SortedEntries {
  readonly items: Entry[] = [];

  private position(entry: Entry): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const item = this.items[middle] as Entry;
      if (item.at < entry.at || (item.at === entry.at && item.key < entry.key)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  insert(entry: Entry): void {
    this.items.splice(this.position(entry), 0, entry);
  }

  remove(entry: Entry): void {
    const at = this.position(entry);
    const found = this.items[at];
    if (found && found.at === entry.at && found.key === entry.key) this.items.splice(at, 1);
  }

  get first(): Entry | undefined {
    return this.items[0];
  }
}

/** An account with due transactions, as `DueIndex.accountsDue` yields it. */
export interface DueAccount {
  userId: number;
  /** The account's due refIds, earliest first (lazily: stop reading when you have enough). */
  refIds(): Iterable<string>;
}

export class DueIndex {
  /** refId → its place in the index. */
  private readonly placed = new Map<string, { at: number; userId: number }>();
  private readonly perAccount = new Map<number, SortedEntries>();
  /** Each account by its earliest due time (key: the user id). */
  private readonly accounts = new SortedEntries();

  get size(): number {
    return this.placed.size;
  }

  /** Puts `refId` at `at` (replacing its previous place), or takes it out with `at` undefined. */
  set(refId: string, userId: number, at: number | undefined): void {
    const previous = this.placed.get(refId);
    if (previous && previous.at === at && previous.userId === userId) return;
    if (previous) this.take(refId, previous.userId, previous.at);
    if (at === undefined) return;
    this.placed.set(refId, { at, userId });
    let entries = this.perAccount.get(userId);
    if (!entries) this.perAccount.set(userId, (entries = new SortedEntries()));
    const before = entries.first;
    entries.insert({ at, key: refId });
    this.moveAccount(userId, before, entries.first);
  }

  delete(refId: string): void {
    const previous = this.placed.get(refId);
    if (previous) this.take(refId, previous.userId, previous.at);
  }

  /** The earliest due time of any indexed transaction. */
  nextDueAt(): number | undefined {
    return this.accounts.first?.at;
  }

  /**
   * Accounts with a transaction due at `nowMs`, the one with the earliest due time first. Lazy:
   * read only as far as needed, and change nothing in the index while reading.
   */
  *accountsDue(nowMs: number): Generator<DueAccount> {
    for (const account of takeWhileDue(this.accounts.items, nowMs)) {
      const entries = this.perAccount.get(Number(account.key));
      if (!entries) continue;
      yield {
        userId: Number(account.key),
        *refIds() {
          for (const entry of takeWhileDue(entries.items, nowMs)) yield entry.key;
        },
      };
    }
  }

  private take(refId: string, userId: number, at: number): void {
    this.placed.delete(refId);
    const entries = this.perAccount.get(userId);
    if (!entries) return;
    const before = entries.first;
    entries.remove({ at, key: refId });
    if (entries.items.length === 0) this.perAccount.delete(userId);
    this.moveAccount(userId, before, entries.first);
  }

  private moveAccount(userId: number, before: Entry | undefined, after: Entry | undefined): void {
    if (before?.at === after?.at) return;
    const key = String(userId);
    if (before) this.accounts.remove({ at: before.at, key });
    if (after) this.accounts.insert({ at: after.at, key });
  }
}

function* takeWhileDue(items: readonly Entry[], nowMs: number): Generator<Entry> {
  for (const item of items) {
    if (item.at > nowMs) return;
    yield item;
  }
}
