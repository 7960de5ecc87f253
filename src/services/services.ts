import type { Db } from '../store/db.ts';
import type { Providers } from '../providers/factory.ts';
import type { Logger } from '../logger.ts';
import { createCredentialService, type CredentialService } from './credentials.ts';
import { PurchaseService } from './purchases.ts';
import { CatalogueService } from './catalogue.ts';
import { PinService } from './pin.ts';
import { AlertService } from './alerts.ts';
import { VerificationService } from './verification.ts';
import { GameOrderService } from './game-orders.ts';
import { RecentTargetsService } from './recent-targets.ts';
import type { Notices } from '../notify/notices.ts';
import { UserAdminService } from './user-admin.ts';
import { StatsService, type BroadcastProgress } from './stats.ts';
import { PriceWatchService } from './price-watch.ts';
import { hasSellRules, sellPriceOf, type SellPriceOf, type SellPricesOf } from './pricing.ts';
import { InlinePriceService } from './inline-prices.ts';
import { createAccountService, type AccountService } from './accounts.ts';
import { GroupLinkService } from './group-links.ts';
import { DownlineService, type DownlineMessages } from './downlines.ts';
import { WalletService, type WalletMessages } from './wallets.ts';
import { TradingAccounts } from './trading.ts';
import { WalletAuditService } from './wallet-audit.ts';
import { accountOf, isUplineRefusal } from '../store/records/transactions.ts';

/** The product's use cases, shared by the bot and the background jobs. */
export interface Services {
  credentials: CredentialService;
  purchases: PurchaseService;
  catalogue: CatalogueService;
  pin: PinService;
  alerts: AlertService;
  /** Marketplace purchase-code checks (/verify): who answers, cache, rate limit. */
  verification: VerificationService;
  gameOrders: GameOrderService;
  /** Earlier targets of a user, offered as buttons when buying. */
  recentTargets: RecentTargetsService;
  /** The operator's figures (/stats). */
  stats: StatsService;
  /** The admins' user management (/user, /ban, /unban). */
  userAdmin: UserAdminService;
  /** Price-change alerts (/pantau): subscriptions, one fetch per account, digests. */
  priceWatch: PriceWatchService;
  /** Inline mode's price cards: sell prices of the matching products. */
  inlinePrices: InlinePriceService;
  /** A user's own account: contact, language, shop profile, sell rules, a block. */
  accounts: AccountService;
  /** Linked groups: the one writer of their links. */
  groupLinks: GroupLinkService;
  /** Downline mode, invitations, join requests and levels: the one writer of `downlineMode` and `membership`. */
  downlines: DownlineService;
  /** Downlines' wallets: deposits, adjustments, statements; the one writer of ledger entries outside purchases and of `depositDesk`. */
  wallets: WalletService;
  /** Whose provider account a user trades through (their own, or their upline's at their level's prices). */
  trading: TradingAccounts;
  /** The operator's audit of the downlines' wallets (/audit). */
  walletAudit: WalletAuditService;
}

export interface ServicesDeps {
  db: Db;
  providers: Providers;
  logger: Logger;
  now: () => Date;
  /** Builds the messages queued on settlements and alerts. */
  notices: Notices;
  /** Formats rupiah for the alert text. */
  formatMoney: (amount: number) => string;
  /** Wakes the outbox after something was queued outside a settlement. */
  onQueued?: () => void;
  /** Path of the operator's game shop catalogue (GAMESHOP_CATALOGUE), if any. */
  gameshopCataloguePath?: string | undefined;
  /** When the process started (for the uptime in /stats); default: when the services were made. */
  startedAt?: Date;
  /** The broadcast being delivered, if any: the hook the broadcast job fills in (/stats shows "none" without it). */
  broadcastProgress?: () => Promise<BroadcastProgress | undefined>;
  /** ADMIN_IDS (they can never be banned). */
  adminIds?: readonly number[];
  /** RECHECK_FIRST_SECONDS in ms: re-check delay of a purchase's first 2 minutes. */
  recheckFirstMs?: number;
  /** A reseller's sell price of a product; default: their /jual rules (undefined without rules). */
  sellPriceOf?: SellPriceOf | undefined;
  /** The messages of downlines the bot queues (join requests, outcomes, changes). */
  downlineMessages: DownlineMessages;
  /** The wallet messages the bot queues (deposit requests, movements). */
  walletMessages: WalletMessages;
  /** The order deposit codes are tried in; default random. */
  depositCodes?: (() => number[]) | undefined;
}

export function createServices(deps: ServicesDeps): Services {
  const credentials = createCredentialService(deps.db, deps.providers, deps.logger);
  const injected = deps.sellPriceOf;
  const sellPrices: SellPricesOf = injected
    ? (userId) => Promise.resolve((product) => injected(userId, product))
    : sellPricesUnderRules(deps.db);
  const alerts = new AlertService({
    ...deps,
    credentials,
    lowBalanceNotice: async (userId, balance, threshold) =>
      await deps.notices.lowBalance(userId, {
        balance: deps.formatMoney(balance),
        threshold: deps.formatMoney(threshold),
      }),
  });
  const trading = new TradingAccounts({ db: deps.db, credentials });
  const catalogue = new CatalogueService({ credentials, trading, now: deps.now });
  return {
    credentials,
    alerts,
    purchases: new PurchaseService({
      ...deps,
      credentials,
      claims: deps.db.sendClaims,
      trading,
      catalogue,
      settlementNotices: (tx, options) => deps.notices.settlement(tx, options),
      heldResolvedNotice: (downline, tx, entry) => deps.notices.heldResolved(downline, tx, entry),
      reviewNotices: (tx, details) => deps.notices.transactionReview(tx, details),
      onSettled: (tx) => {
        deps.onQueued?.();
        const accountId = accountOf(tx);
        if (tx.status === 'Sukses')
          void alerts
            .check(accountId)
            .catch((error: unknown) => deps.logger.warn('balance alert check failed', { userId: accountId, error }));
        if (tx.upline && tx.status === 'Rejected' && isUplineRefusal(tx.message))
          void alerts
            .downlineRefusalAlerted(tx.upline.id, new Date(tx.settledAt ?? deps.now().toISOString()))
            .catch((error: unknown) => deps.logger.warn('upline alert mark failed', { userId: accountId, error }));
      },
    }),
    catalogue,
    trading,
    walletAudit: new WalletAuditService(deps.db),
    inlinePrices: new InlinePriceService({ db: deps.db, catalogue, trading, sellPrices }),
    accounts: createAccountService(deps.db),
    groupLinks: new GroupLinkService(deps.db),
    downlines: new DownlineService({
      db: deps.db,
      credentials,
      now: deps.now,
      messages: deps.downlineMessages,
      ...(deps.onQueued ? { onQueued: deps.onQueued } : {}),
    }),
    wallets: new WalletService({
      db: deps.db,
      now: deps.now,
      messages: deps.walletMessages,
      ...(deps.depositCodes ? { codes: deps.depositCodes } : {}),
      ...(deps.onQueued ? { onQueued: deps.onQueued } : {}),
    }),
    pin: new PinService({ db: deps.db, now: deps.now }),
    verification: new VerificationService({ db: deps.db, credentials, logger: deps.logger, now: deps.now }),
    gameOrders: new GameOrderService({ ...deps, credentials, gameshopCataloguePath: deps.gameshopCataloguePath }),
    recentTargets: new RecentTargetsService({ db: deps.db }),
    stats: new StatsService({
      db: deps.db,
      now: deps.now,
      startedAt: deps.startedAt ?? deps.now(),
      ...(deps.broadcastProgress ? { broadcast: deps.broadcastProgress } : {}),
    }),
    userAdmin: new UserAdminService({ db: deps.db, logger: deps.logger, now: deps.now, adminIds: deps.adminIds ?? [] }),
    priceWatch: new PriceWatchService({
      db: deps.db,
      credentials,
      trading,
      catalogue,
      logger: deps.logger,
      now: deps.now,
      sellPrices,
      digest: async (userId, changes, options) => await deps.notices.priceDigest(userId, changes, options),
      ...(deps.onQueued ? { onQueued: deps.onQueued } : {}),
    }),
  };
}

/** A user's /jual sell prices; undefined without rules (the digest then shows no margin). */
function sellPricesUnderRules(db: Db): SellPricesOf {
  return async (userId) => {
    const rules = (await db.users.get(userId))?.sellRules;
    return (product) =>
      hasSellRules(rules) ? sellPriceOf(rules, { code: product.code, product_name: product.name, price: product.price }).sell : undefined;
  };
}
