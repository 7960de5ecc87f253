/**
 * Price-change alerts (/pantau): each watched provider account's price list is fetched once per
 * pass, compared with the last copy, and each subscriber (and their group, if chosen) gets one
 * digest of what changed for the brands they follow. The first fetch only records the baseline.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../store/db.ts';
import type { SnapshotProduct } from '../store/records/price-watch.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { UserRecord } from '../store/records/users.ts';
import type { Logger } from '../logger.ts';
import type { CredentialService } from './credentials.ts';
import type { CatalogueService } from './catalogue.ts';
import { groupByBrand } from './brands.ts';
import { activeProductStatus } from '../providers/reseller/schemas.ts';
import type { SellPricesOf } from './pricing.ts';
import type { DigestChange } from '../text/price-digest.ts';

/** One thing that changed about one product between two price lists; `brand` as /harga groups brands. */
export interface PriceChange extends Omit<DigestChange, 'sell'> {
  brand: string;
}

/** A change as one subscriber sees it: with their sell price in force, when they have one. */
export interface SubscriberChange extends PriceChange {
  sell?: number;
}

/**
 * What changed from `before` to `after`: a product whose status left `active` (or moved between
 * two unavailable statuses) is `unavailable` with its new status verbatim; one whose status
 * became `active` is `active`; a changed price is `up` or `down` (a product can be in a status
 * group and a price group at once); codes only in `after` are `new`, only in `before` `removed`.
 * In the order of the lists.
 */
export function diffPriceLists(before: readonly SnapshotProduct[], after: readonly SnapshotProduct[]): PriceChange[] {
  const old = new Map(before.map((p) => [p.code, p]));
  const now = new Set(after.map((p) => p.code));
  const removed = before.filter((p) => !now.has(p.code));
  const brands = brandsOf([...after, ...removed]);
  const change = (kind: PriceChange['kind'], p: SnapshotProduct, extra: Partial<PriceChange> = {}): PriceChange => ({
    kind,
    code: p.code,
    name: p.name,
    brand: brands.get(p.code) ?? '',
    price: p.price,
    status: p.status,
    ...extra,
  });
  const changes: PriceChange[] = [];
  for (const product of after) {
    const previous = old.get(product.code);
    if (!previous) {
      changes.push(change('new', product));
      continue;
    }
    if (previous.status !== product.status)
      changes.push(change(product.status === activeProductStatus ? 'active' : 'unavailable', product));
    if (previous.price !== product.price)
      changes.push(change(product.price > previous.price ? 'up' : 'down', product, { oldPrice: previous.price }));
  }
  for (const product of removed) changes.push(change('removed', product));
  return changes;
}

/** Brand of every product, grouped as the price list groups them. */
function brandsOf(products: readonly SnapshotProduct[]): Map<string, string> {
  const groups = groupByBrand(products.map((p) => ({ product_name: p.name, code: p.code, price: p.price, status: p.status })));
  return new Map(groups.flatMap((group) => group.products.map((p) => [p.code, group.brand] as const)));
}

export interface PriceWatchSettings {
  /** Brands followed, lower case; empty: every brand. */
  brands: string[];
  /** Whether the linked group also gets the digest. */
  group: boolean;
}

/** A provider account (`key`: `accountKeyOf` its api id) and its subscribers. */
interface WatchedAccount {
  key: string;
  userIds: number[];
}

export interface PriceWatchDeps {
  db: Db;
  credentials: CredentialService;
  /** The one price list per account: the watcher's fetch replaces the copy every feature shows. */
  catalogue: CatalogueService;
  logger: Logger;
  now: () => Date;
  sellPrices: SellPricesOf;
  /** The digest messages for one subscriber (and their group when `groupChatId` is set). */
  digest: (userId: number, changes: SubscriberChange[], options: { groupChatId?: number; dedupeKey: string }) => Promise<NewOutboxItem[]>;
  /** Wakes the outbox after something was queued. */
  onQueued?: () => void;
}

/** Names an account by its api id without storing it: the first 16 hex digits of its SHA-256. */
export function accountKeyOf(apiId: string): string {
  return createHash('sha256').update(`reseller:${apiId}`).digest('hex').slice(0, 16);
}

/** Price-change alerts: subscriptions, one fetch per watched account per pass, digests. */
export class PriceWatchService {
  constructor(private readonly deps: PriceWatchDeps) {}

  /** The user's subscription, or undefined when they are not subscribed. */
  async settings(userId: number): Promise<PriceWatchSettings | undefined> {
    const settings = (await this.deps.db.users.get(userId))?.priceWatch;
    return settings ? { brands: [...settings.brands], group: settings.group } : undefined;
  }

  /**
   * Subscribes (or changes the settings); `undefined` unsubscribes. When the account had no stored
   * copy yet, resolves once its baseline is taken, so the first change after subscribing is reported.
   */
  async update(userId: number, settings: PriceWatchSettings | undefined): Promise<void> {
    const { db } = this.deps;
    const brands = settings ? [...new Set(settings.brands.map((b) => b.trim().toLowerCase()).filter(Boolean))] : [];
    await db.users.update(userId, { priceWatch: settings ? { brands, group: settings.group } : undefined });
    const key = settings ? await this.watchKeyOf(userId) : undefined;
    if (key !== undefined && !(await db.priceWatch.get(key))) await this.check({ key, userIds: [userId] });
  }

  /**
   * Checks every watched account in turn, then forgets the copies nobody watches. `pause(count)`
   * runs between two accounts; resolving false ends the pass (the job is stopping).
   */
  async checkAll(pause?: (accounts: number) => Promise<boolean>): Promise<void> {
    const watched = await this.accounts();
    for (const [index, account] of watched.entries()) {
      if (index > 0 && pause && !(await pause(watched.length))) return;
      await this.check(account);
    }
    await this.deps.db.priceWatch.retain(new Set(watched.map((a) => a.key)));
  }

  /** Queues one user's digest (filtered by their brands); resolves how many messages were queued. */
  private async notify(userId: number, changes: PriceChange[], fingerprint: string): Promise<number> {
    const user = await this.deps.db.users.get(userId);
    const settings = user?.priceWatch;
    if (!user || !settings || !isSubscriber(user)) return 0;
    const followed = new Set(settings.brands);
    const sellPriceOf = await this.deps.sellPrices(userId);
    const mine = changes
      .filter((c) => followed.size === 0 || followed.has(c.brand.toLowerCase()))
      .map((c): SubscriberChange => {
        const sell = c.kind === 'removed' ? undefined : sellPriceOf({ code: c.code, name: c.name, brand: c.brand, price: c.price });
        return sell === undefined ? c : { ...c, sell };
      });
    if (mine.length === 0) return 0;
    const group = settings.group ? (await this.deps.db.groups.byOwner(userId))[0] : undefined;
    const items = await this.deps.digest(userId, mine, {
      dedupeKey: `prices:${fingerprint}`,
      ...(group ? { groupChatId: group.chatId } : {}),
    });
    for (const item of items) await this.deps.db.outbox.enqueue(item);
    return items.length;
  }

  /** The snapshot key of the user's reseller account; undefined when not connected (or unreadable, which is logged). */
  private async watchKeyOf(userId: number): Promise<string | undefined> {
    try {
      const apiId = (await this.deps.credentials.load(userId, 'reseller'))?.apiId;
      return apiId === undefined ? undefined : accountKeyOf(apiId);
    } catch (error) {
      this.deps.logger.warn('price watch: stored credentials cannot be opened', { userId, error });
      return undefined;
    }
  }

  /** Accounts with at least one subscriber (connected, active, not banned). */
  private async accounts(): Promise<WatchedAccount[]> {
    const byKey = new Map<string, number[]>();
    // The store finds the few watchers without reading the other users.
    for (const user of await this.deps.db.users.list({ active: true, priceWatchers: true, where: isSubscriber })) {
      const key = await this.watchKeyOf(user.id);
      if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), user.id]);
    }
    return [...byKey].map(([key, userIds]) => ({ key, userIds }));
  }

  /** Fetches the account's list, queues the digests of what changed, then stores the copy; a failed fetch is logged (the next pass tries again). */
  private async check(account: WatchedAccount): Promise<void> {
    const [first] = account.userIds;
    if (first === undefined) return;
    let products: SnapshotProduct[];
    try {
      const list = await this.deps.catalogue.priceList(first, { fresh: true });
      products = list.map((p) => ({ code: p.code, name: p.product_name, price: p.price, status: p.status }));
    } catch (error) {
      this.deps.logger.warn('price watch: price list fetch failed', { account: account.key, error });
      return;
    }
    const snapshot = { at: this.deps.now().toISOString(), products };
    const before = await this.deps.db.priceWatch.get(account.key);
    if (!before) {
      await this.deps.db.priceWatch.save(account.key, snapshot);
      return;
    }
    const changes = diffPriceLists(before.products, products);
    if (changes.length === 0) return;
    // Digests first, then the new copy: a crash in between sends the same digest again after the
    // restart (deduplicated while it is still queued) rather than losing it.
    const fingerprint = `${account.key}:${createHash('sha256').update(JSON.stringify(products)).digest('hex').slice(0, 16)}`;
    let queued = 0;
    for (const userId of account.userIds) queued += await this.notify(userId, changes, fingerprint);
    await this.deps.db.priceWatch.save(account.key, snapshot);
    if (queued > 0) this.deps.onQueued?.();
    this.deps.logger.info('price watch: price list changed', { account: account.key, changes: changes.length, queued });
  }
}

function isSubscriber(user: UserRecord): boolean {
  return user.priceWatch !== undefined && user.active && user.ban === undefined;
}

/**
 * Reads the brands a user typed (`telkomsel xl`, `mobile legends, pln`) against the brands of
 * their price list, case-insensitively, longest brand names first so two-word brands win.
 * Returns the brands found (as the list writes them) and the words that matched none.
 */
export function matchBrands(text: string, brands: readonly string[]): { found: string[]; unknown: string[] } {
  let rest = ` ${text.toLowerCase().replace(/[,;]+/g, ' ').replace(/\s+/g, ' ').trim()} `;
  const found: string[] = [];
  for (const brand of [...brands].sort((a, b) => b.length - a.length)) {
    const needle = ` ${brand.toLowerCase()} `;
    if (!rest.includes(needle)) continue;
    found.push(brand);
    rest = rest.replaceAll(needle, ' ');
  }
  return { found, unknown: rest.split(' ').filter(Boolean) };
}
