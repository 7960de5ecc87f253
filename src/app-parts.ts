/** Parts an app instance is composed of, each made in one named place; createApp (app.ts) wires them together. */
import { Api, type BotConfig, type Transformer } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { Config } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import type { Db } from './store/db.ts';
import type { ClaimTokens } from './store/claim-holder.ts';
import { createBot } from './bot/index.ts';
import type { BotContext, BotDeps, ConversationContext, FloodLimit } from './bot/context.ts';
import type { createI18n } from './bot/i18n.ts';
import { htmlParseMode } from './text/html.ts';
import { formatReceipt } from './text/receipt.ts';
import { createReceiptKeyboard, createResultsKeyboard } from './bot/keyboards/receipt.ts';
import { fit, renderPurchaseResults, toPurchaseResult } from './bot/renderers/purchase.ts';
import { createNotices, type Notices } from './notify/notices.ts';
import { createOutbox, type Outbox, type OutboxLimits } from './notify/outbox.ts';
import { createRateGate, rateDefaults, type RateGate } from './notify/rate-gate.ts';
import { createFleetGate } from './notify/fleet-gate.ts';
import type { GroupLinkService } from './services/group-links.ts';
import type { DownlineMessages } from './services/downlines.ts';
import { createDownlineNotices } from './notify/downline-notices.ts';
import { createJoinRequestKeyboard } from './bot/keyboards/downlines.ts';
import type { WalletMessages } from './services/wallets.ts';
import { createWalletNotices } from './notify/wallet-notices.ts';
import { createDepositDecisionKeyboard } from './bot/keyboards/wallet.ts';

type I18n = ReturnType<typeof createI18n<ConversationContext>>;

/** The process's logger, with every secret of the configuration redacted (in either encoding). */
export function createAppLogger(config: Config): Logger {
  return createLogger({
    level: config.logLevel,
    secrets: [
      config.botToken,
      ...[config.encryptionKey, ...config.previousKeys].flatMap((key) => [key.toString('base64'), key.toString('hex')]),
    ],
  });
}

/** The texts of the messages the bot sends on its own (settlements, alerts, operator items). */
export function createAppNotices(config: Config, db: Db, i18n: I18n): Notices {
  return createNotices({
    db,
    translate: (locale, key, variables) => i18n.t(locale, key, variables),
    formatReceipt,
    receiptKeyboard: (t, tx) => createReceiptKeyboard(t, tx),
    resultsKeyboard: (t, transactions) => createResultsKeyboard(t, transactions),
    formatPurchaseResults: (t, transactions) =>
      fit((compact) => renderPurchaseResults(t as TranslateFunction, transactions.map(toPurchaseResult), config.publicIp, compact)),
    defaultLocale: config.defaultLocale,
    adminChatId: config.adminChatId,
  });
}

/** The messages of downlines and their wallets the bot queues, as createServices takes them. */
export function createAppDownlineMessages(
  config: Config,
  i18n: I18n,
): { downlineMessages: DownlineMessages; walletMessages: WalletMessages } {
  return { downlineMessages: createAppDownlineNotices(config, i18n), walletMessages: createAppWalletNotices(config, i18n) };
}

/** The downline messages the bot queues (join requests with their buttons, outcomes, changes). */
export function createAppDownlineNotices(config: Config, i18n: I18n): DownlineMessages {
  return createDownlineNotices({
    translate: (locale, key, variables) => i18n.t(locale, key, variables),
    defaultLocale: config.defaultLocale,
    requestKeyboard: createJoinRequestKeyboard,
  });
}

/** The wallet messages the bot queues (deposit requests with ✅ / ❌, each movement to its downline). */
export function createAppWalletNotices(config: Config, i18n: I18n): WalletMessages {
  return createWalletNotices({
    translate: (locale, key, variables) => i18n.t(locale, key, variables),
    defaultLocale: config.defaultLocale,
    requestKeyboard: createDepositDecisionKeyboard,
  });
}

/**
 * The outbox on an Api of its own, and the one rate gate its notices, a broadcast's copies and the
 * bot's replies take their turns from (on a fleet's store, behind the shared send slots).
 * `groupLinks` is a getter: the services are made after the outbox.
 */
export function createAppOutbox(parts: {
  config: Config;
  /** The gate's limits, the broadcast's rates among them (`broadcastRates`). */
  limits: OutboxLimits | undefined;
  db: Db;
  claims: ClaimTokens;
  logger: Logger;
  now: () => Date;
  groupLinks: () => GroupLinkService;
}): { outbox: Outbox; gate: RateGate } {
  const { config, db, logger, now } = parts;
  // The outbox paces itself and waits out 429s, so its Api has no auto-retry transformer.
  const outboxApi = new Api(config.botToken, { apiRoot: config.telegramApiRoot });
  // Notifications are HTML like every other message (src/text/html.ts); this transformer never retries.
  outboxApi.config.use(htmlParseMode);
  const limits = parts.limits ?? {};
  const local = createRateGate({ limits });
  // A fleet sharing PostgreSQL keeps Telegram's overall rate together: every message takes a shared slot.
  const gate = config.databaseUrl
    ? createFleetGate({
        local,
        slots: db.sendSlots,
        // The process gate's own limits (rate-gate.ts defaults unless the caller set them), so that both keep the same books.
        limits: {
          perSecond: limits.globalPerSecond ?? rateDefaults.globalPerSecond,
          perChatMs: limits.perChatMs ?? rateDefaults.perChatMs,
          perGroupPerMinute: limits.perGroupPerMinute ?? rateDefaults.perGroupPerMinute,
        },
        // Not the app's clock: the gate sleeps in real time until a slot's instant, so the instants
        // must be on a clock that moves while it sleeps (a test's frozen app clock never would, and
        // every message would wait one slot longer than the one before).
      })
    : local;
  const outbox = createOutbox({
    api: outboxApi,
    db,
    claims: parts.claims,
    gate,
    logger,
    now,
    onBlocked: async (chatId) => {
      if (chatId < 0) await parts.groupLinks().unlink(chatId);
    },
    onMigrated: async (oldId, newId) => {
      await parts.groupLinks().migrate(oldId, newId);
    },
  });
  return { outbox, gate };
}

/** The bot and the dependencies its handlers get (`ctx.deps`). */
export function createAppBot(input: {
  config: Config;
  options: {
    botConfig?: BotConfig<BotContext> | undefined;
    conversationTimeoutMs?: number | undefined;
    floodLimit?: FloodLimit | undefined;
  };
  parts: Omit<BotDeps, 'settings' | 'replyPacer'>;
  /** Makes the bot's replies take their turns from the rate gate (reply-pacer.ts). */
  replyPacer: Transformer;
}): { bot: ReturnType<typeof createBot>; deps: BotDeps } {
  const { config, options } = input;
  const deps: BotDeps = {
    settings: {
      botToken: config.botToken,
      adminIds: config.adminIds,
      adminChatId: config.adminChatId,
      publicIp: config.publicIp,
      defaultLocale: config.defaultLocale,
      conversationTimeoutMs: options.conversationTimeoutMs ?? 15 * 60_000,
      gameshopCataloguePath: config.gameshopCataloguePath,
      floodLimit: options.floodLimit,
      claims: config.claims,
      downlines: config.downlines,
    },
    ...input.parts,
    replyPacer: input.replyPacer,
  };
  const botConfig: BotConfig<BotContext> = {
    ...options.botConfig,
    client: { apiRoot: config.telegramApiRoot, ...options.botConfig?.client },
  };
  return { bot: createBot(deps, botConfig), deps };
}
