/**
 * A user's own account, as the bot's handlers change it: first contact and what Telegram tells of
 * them, the language they chose, their shop profile (/toko), their sell-price rules (/jual), and a
 * private chat that blocked the bot. The bot's handlers write none of it themselves.
 */
import type { Locale } from '../domain.ts';
import type { Db } from '../store/db.ts';
import type { SellRules, ShopProfile, UserRecord } from '../store/records/users.ts';

/** What an update tells of its sender. */
export interface Sender {
  id: number;
  firstName: string;
  username?: string | undefined;
  /** Their Telegram app's language when the bot speaks it; undefined when the update does not say. */
  telegramLocale?: Locale | undefined;
}

export interface AccountService {
  /**
   * Records a contact from `sender`: a new user is created (`created: true`); a known one's names and app language are
   * refreshed (written deferred: a crash loses only what the next contact tells again), and one who had blocked the bot
   * is active again at once. Writes only when something changed. Resolves with the record as it is now.
   */
  seen(sender: Sender): Promise<{ user: UserRecord | undefined; created: boolean }>;
  /** The language the user chose with /language. */
  setLocale(userId: number, locale: Locale): Promise<void>;
  /** The shop profile of customer receipts (undefined: removed). */
  setShop(userId: number, profile: ShopProfile | undefined): Promise<void>;
  /**
   * The sell-price rules `change` makes of the stored ones (undefined rules: none, sell = cost);
   * resolves with the rules stored.
   */
  changeSellRules<R extends SellRules | undefined>(userId: number, change: (rules: SellRules | undefined) => R): Promise<R>;
  /** The user blocked the bot in their private chat: nothing is sent to them until they write again. */
  blocked(userId: number): Promise<void>;
}

export function createAccountService(db: Db): AccountService {
  return {
    async seen(sender) {
      const existing = await db.users.get(sender.id);
      // An update without a language code says nothing about the app's language: keep what is stored.
      const telegramLocale = sender.telegramLocale ?? existing?.telegramLocale;
      if (!existing) {
        const { user } = await db.users.upsert({ id: sender.id, firstName: sender.firstName, username: sender.username, telegramLocale });
        return { user, created: true };
      }
      const changed =
        !existing.active ||
        existing.firstName !== sender.firstName ||
        existing.username !== sender.username ||
        existing.telegramLocale !== telegramLocale;
      if (!changed) return { user: existing, created: false };
      const patch = { active: true, firstName: sender.firstName, username: sender.username, telegramLocale };
      return { user: await db.users.update(sender.id, patch, { deferWrite: existing.active }), created: false };
    },
    async setLocale(userId, locale) {
      await db.users.update(userId, { locale });
    },
    async setShop(userId, profile) {
      await db.users.update(userId, { shop: profile });
    },
    async changeSellRules(userId, change) {
      const rules = change((await db.users.get(userId))?.sellRules);
      await db.users.update(userId, { sellRules: rules });
      return rules;
    },
    async blocked(userId) {
      await db.users.setActive(userId, false);
    },
  };
}
