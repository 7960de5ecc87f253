/**
 * Price-change alerts (/pantau): each watched provider account's price list is fetched once per
 * pass, compared with the last copy, and each subscriber (and their group, if chosen) gets one
 * digest of what changed for the brands they follow. The first fetch only records the baseline.
 *
 * A downline watches their own prices: the same one fetch of their upline's account, repriced at
 * their level and compared with the last copy of that level's list (its own snapshot, keyed by
 * account, upline and level). So a cost change shows as the change of their price it makes (none
 * when the level's rounding or a fixed price absorbs it), and a change of the upline's level rules
 * is a change of their prices too. Never the upline's cost or margin.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../store/db.ts';
import type { SnapshotProduct } from '../store/records/price-watch.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { UserRecord } from '../store/records/users.ts';
import type { Logger } from '../logger.ts';
import type { CredentialService } from './credentials.ts';
import type { CatalogueService } from './catalogue.ts';
import type { TradingAccounts } from './trading.ts';
import type { DownlineLevel } from '../store/records/users.ts';
import type { Product } from '../providers/reseller/schemas.ts';
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

/**
 * A provider account (`key`: `accountKeyOf` its api id), fetched as `ownerId` (a user whose own
 * account it is), its subscribers on its own prices, and its downlines' subscriptions by level.
 */
interface WatchedAccount {
  key: string;
  ownerId: number;
  userIds: number[];
  levels: WatchedLevel[];
}

/** One upline's level whose downlines watch their prices: its own snapshot under `key`. */
interface WatchedLevel {
  key: string;
  level: DownlineLevel;
  userIds: number[];
}

/** Where one subscriber's digest comes from: the account, and for a downline their level's list. */
interface WatchOf {
  key: string;
  ownerId: number;
  level?: { key: string; level: DownlineLevel };
}

/** The snapshot key of a level's list: its account, its upline (two uplines may share an account) and the level. */
function levelKeyOf(accountKey: string, uplineId: number, levelId: string): string {
  return `${accountKey}:${uplineId}:${levelId}`;
}

function snapshotOf(list: readonly Product[]): SnapshotProduct[] {
  return list.map((p) => ({ code: p.code, name: p.product_name, price: p.price, status: p.status }));
}

export interface PriceWatchDeps {
  db: Db;
  credentials: CredentialService;
  /** Whose account a subscriber's prices come from (a downline: their upline's, at their level). */
  trading: TradingAccounts;
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
   * Subscribes (or changes the settings); `undefined` unsubscribes. When the account (for a
   * downline: or their level's list) had no stored copy yet, resolves once its baseline is taken,
   * so the first change after subscribing is reported.
   */
  async update(userId: number, settings: PriceWatchSettings | undefined): Promise<void> {
    const { db } = this.deps;
    const brands = settings ? [...new Set(settings.brands.map((b) => b.trim().toLowerCase()).filter(Boolean))] : [];
    await db.users.update(userId, { priceWatch: settings ? { brands, group: settings.group } : undefined });
    const watch = settings ? await this.watchOf(userId) : undefined;
    if (!watch) return;
    const keys = [watch.key, ...(watch.level ? [watch.level.key] : [])];
    const stored = await Promise.all(keys.map((key) => db.priceWatch.get(key)));
    if (stored.every(Boolean)) return;
    // Only the missing copies: comparing the stored ones here would report a change to this user alone.
    await this.check(accountOf(watch, userId), { baselineOnly: true });
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
    await this.deps.db.priceWatch.retain(new Set(watched.flatMap((a) => [a.key, ...a.levels.map((l) => l.key)])));
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

  /** The snapshot key of the user's own reseller account; undefined when not connected (or unreadable, which is logged). */
  private async accountKeyOfUser(userId: number): Promise<string | undefined> {
    try {
      const apiId = (await this.deps.credentials.load(userId, 'reseller'))?.apiId;
      return apiId === undefined ? undefined : accountKeyOf(apiId);
    } catch (error) {
      this.deps.logger.warn('price watch: stored credentials cannot be opened', { userId, error });
      return undefined;
    }
  }

  /** Where the user's digest comes from; undefined when they cannot trade (not connected, or their upline is not). */
  private async watchOf(userId: number): Promise<WatchOf | undefined> {
    const account = await this.deps.trading.of(userId);
    if (!account || (account.kind === 'downline' && !account.connected)) return undefined;
    const key = await this.accountKeyOfUser(account.accountId);
    if (key === undefined) return undefined;
    if (account.kind === 'own') return { key, ownerId: userId };
    const level = { key: levelKeyOf(key, account.accountId, account.level.id), level: account.level };
    return { key, ownerId: account.accountId, level };
  }

  /** Accounts with at least one subscriber (connected, active, not banned). */
  private async accounts(): Promise<WatchedAccount[]> {
    const byKey = new Map<string, WatchedAccount>();
    // The store finds the few watchers without reading the other users.
    for (const user of await this.deps.db.users.list({ active: true, priceWatchers: true, where: isSubscriber })) {
      const watch = await this.watchOf(user.id);
      if (!watch) continue;
      const account = byKey.get(watch.key) ?? { key: watch.key, ownerId: watch.ownerId, userIds: [], levels: [] };
      byKey.set(watch.key, account);
      if (!watch.level) {
        // The account's own subscriber fetches it as themselves: certain to be its owner.
        account.ownerId = user.id;
        account.userIds.push(user.id);
        continue;
      }
      const { key, level } = watch.level;
      const watched = account.levels.find((l) => l.key === key);
      if (watched) watched.userIds.push(user.id);
      else account.levels.push({ key, level, userIds: [user.id] });
    }
    return [...byKey.values()];
  }

  /**
   * Fetches the account's list (once, for every list made of it), then compares it, and each
   * watched level's list made of it, with its last copy. `baselineOnly`: stores the missing copies
   * and compares nothing. A failed fetch is logged (the next pass tries again).
   */
  private async check(account: WatchedAccount, options: { baselineOnly?: boolean } = {}): Promise<void> {
    const { catalogue, logger, now } = this.deps;
    let list: Product[];
    try {
      list = await catalogue.priceList(account.ownerId, { fresh: true });
    } catch (error) {
      logger.warn('price watch: price list fetch failed', { account: account.key, error });
      return;
    }
    const at = now().toISOString();
    const lists = [
      { key: account.key, userIds: account.userIds, products: snapshotOf(list) },
      ...account.levels.map((l) => ({ key: l.key, userIds: l.userIds, products: snapshotOf(catalogue.atLevel(list, l.level)) })),
    ];
    let queued = 0;
    for (const watched of lists) queued += await this.compare(watched, at, options.baselineOnly === true);
    if (queued > 0) this.deps.onQueued?.();
  }

  /** Compares one list with its last copy: queues the digests of what changed, then stores the list; resolves how many messages were queued. */
  private async compare(
    watched: { key: string; userIds: number[]; products: SnapshotProduct[] },
    at: string,
    baselineOnly: boolean,
  ): Promise<number> {
    const { db, logger } = this.deps;
    const { key, products } = watched;
    const before = await db.priceWatch.get(key);
    if (!before) {
      await db.priceWatch.save(key, { at, products });
      return 0;
    }
    if (baselineOnly) return 0;
    const changes = diffPriceLists(before.products, products);
    if (changes.length === 0) return 0;
    // Digests first, then the new copy: a crash in between sends the same digest again after the
    // restart (deduplicated while it is still queued) rather than losing it.
    const fingerprint = `${key}:${createHash('sha256').update(JSON.stringify(products)).digest('hex').slice(0, 16)}`;
    let queued = 0;
    for (const userId of watched.userIds) queued += await this.notify(userId, changes, fingerprint);
    await db.priceWatch.save(key, { at, products });
    logger.info('price watch: price list changed', { account: key, changes: changes.length, queued });
    return queued;
  }
}

/** One subscriber's own watch as an account to check. */
function accountOf(watch: WatchOf, userId: number): WatchedAccount {
  const { key, ownerId, level } = watch;
  return level ? { key, ownerId, userIds: [], levels: [{ ...level, userIds: [userId] }] } : { key, ownerId, userIds: [userId], levels: [] };
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
