import { Bot, type Api, type BotConfig } from 'grammy';
import { conversations, createConversation } from '@grammyjs/conversations';
import { autoRetry } from '@grammyjs/auto-retry';
import { limit } from '@grammyjs/ratelimiter';
import { sequentialize } from '@grammyjs/runner';
import { FastComposer } from './composer.ts';
import type { BotContext, BotDeps, ConversationContext, FloodLimit } from './context.ts';
import { attachAccount } from './middlewares/account.ts';
import { refuseBanned } from './middlewares/banned.ts';
import { logUpdates } from './middlewares/update-log.ts';
import { countCrowd } from './middlewares/crowd.ts';
import { lowerCaseCommands } from './middlewares/command-case.ts';
import { createMenuButtons } from './middlewares/menu-buttons.ts';
import { askAgainAfterInfo } from './conversations/ask.ts';
import { settingsFeature } from './features/settings.ts';
import { quietly } from './edits.ts';
import { createConversationStorage } from './conversation-storage.ts';
import { handleBotError } from './errors.ts';
import { htmlParseMode } from '../text/html.ts';
import { privateOnlyAnswer, privateOnlyDownlineAnswer } from './guards.ts';
import { cancelFeature } from './features/cancel.ts';
import { startFeature } from './features/start.ts';
import { inlineFeature } from './features/inline.ts';
import { downlinesFeature } from './features/downlines.ts';
import { walletFeature } from './features/wallet.ts';
import { heldFeature } from './features/held.ts';
import { downlineReportsFeature } from './features/downline-reports.ts';
import { languageFeature } from './features/language.ts';
import { unhandledFeature } from './features/unhandled.ts';
import { connectFeature } from './features/connect.ts';
import { balanceFeature } from './features/balance.ts';
import { priceSearchFeature, pricesFeature } from './features/prices.ts';
import { buyFeature } from './features/buy.ts';
import { statusFeature } from './features/status.ts';
import { historyFeature } from './features/history.ts';
import { exportFeature } from './features/export.ts';
import { reportFeature } from './features/report.ts';
import { sellFeature } from './features/sell.ts';
import { receiptFeature } from './features/receipt.ts';
import { groupsFeature } from './features/groups.ts';
import { alertFeature } from './features/alert.ts';
import { watchFeature } from './features/watch.ts';
import { adminFeature } from './features/admin.ts';
import { broadcastFeature } from './features/broadcast.ts';
import { conversationIds } from './conversations/ids.ts';
import { createConnectConversation } from './conversations/connect.ts';
import { createBuyConversation } from './conversations/buy.ts';
import { createPinConversation } from './conversations/pin.ts';
import { createOrderConversation } from './conversations/order.ts';
import { createShopConversation } from './conversations/shop.ts';
import { createSellConversation } from './conversations/sell.ts';
import { marketplaceFeature } from './features/marketplace.ts';
import { gameshopFeature } from './features/gameshop.ts';

const isCommand = (ctx: BotContext): boolean => (ctx.message?.text ?? '').trimStart().startsWith('/');

/** Flood limit per user: tapping through the /beli picker is about a dozen updates in a few seconds, never 15 in 3 s. */
export const defaultFloodLimit: FloodLimit = { updates: 15, windowMs: 3000 };

/**
 * The transformers of an Api the bot replies with (bot.api, and each conversation's fresh one),
 * innermost first: the pacer takes turns under Telegram's ceiling and waits out 429s
 * (src/notify/reply-pacer.ts), auto-retry tries a 5xx again through it, the parse mode sets HTML.
 */
export function installReplyTransformers(api: Api, deps: Pick<BotDeps, 'replyPacer'>): void {
  if (deps.replyPacer) api.config.use(deps.replyPacer);
  api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30, rethrowHttpErrors: true }));
  api.config.use(htmlParseMode);
}

/**
 * Assembles the bot: the only place middleware is put together. Everything it needs is injected,
 * so a test passes `{ botInfo, client: { apiRoot } }` and runs this exact production path.
 */
export function createBot(deps: BotDeps, botConfig?: BotConfig<BotContext>): Bot<BotContext> {
  const bot = new Bot<BotContext>(deps.settings.botToken, botConfig);
  const i18n = deps.i18n;

  installReplyTransformers(bot.api, deps);

  // One FastComposer for all: grammY's Bot nests two async functions per `bot.use` (bench/README.md, `BENCH_ALLOC`).
  const root = new FastComposer<BotContext>();
  bot.use(root);

  root.use(countCrowd());
  root.use(logUpdates(deps.logger));
  root.use(lowerCaseCommands);
  // A main-menu button is its command from here on.
  root.use(createMenuButtons(i18n));
  // Updates of one chat are handled in order, also under @grammyjs/runner's concurrency.
  root.use(sequentialize((ctx) => ctx.chat?.id.toString() ?? ctx.from?.id.toString()));
  root.use(attachAccount(deps));
  root.use(i18n);
  // A user an admin banned gets one message saying so, then nothing (before flows and features).
  root.use(refuseBanned);
  const floodLimit = deps.settings.floodLimit ?? defaultFloodLimit;
  root.use(
    limit<BotContext, never>({
      timeFrame: floodLimit.windowMs,
      limit: floodLimit.updates,
      // Inline queries come one per keystroke and are answered from the cached price list: not counted.
      keyGenerator: (ctx) => (ctx.inlineQuery ? undefined : ctx.from?.id.toString()),
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- typed `=> void`, but the plugin returns this promise from its middleware, so grammY awaits it.
      onLimitExceeded: async (ctx) => {
        deps.logger.warn('flood limit reached', { userId: ctx.from?.id });
        if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: ctx.t('error-too-fast') }).catch(() => undefined);
        else if (ctx.chat?.type === 'private') await ctx.reply(ctx.t('error-too-fast')).catch(() => undefined);
      },
    }),
  );
  root.use(
    conversations<BotContext, ConversationContext>({
      storage: createConversationStorage(deps.db),
      // A conversation ends from outside when the user moved on (a command or another feature's
      // button typed mid-flow: `leftFlow`, said here before the update runs), on /cancel, or
      // because its wait timed out. Only the latter leaves a non-command update unmarked.
      onExit: async (id, ctx) => {
        if (ctx.leftFlow) {
          const what = ctx.leftFlowWhat;
          await quietly(ctx.reply(what === undefined ? ctx.t('flow-left', { id }) : ctx.t('flow-left-what', { id, what })));
        } else if (!isCommand(ctx)) ctx.expiredConversation = id;
      },
      plugins: [
        i18n,
        async (ctx, next) => {
          // A conversation's context has a fresh Api: it gets the same transformers as bot.api.
          installReplyTransformers(ctx.api, deps);
          await next();
        },
      ],
    }),
  );
  root.use(cancelFeature);
  // An information command answered inside a flow: the flow's question comes again after it.
  root.use(askAgainAfterInfo);

  // Every conversation is installed before any feature, so any feature can enter any of them.
  const wait = { maxMillisecondsToWait: deps.settings.conversationTimeoutMs };
  root.use(createConversation(createConnectConversation(deps), { id: conversationIds.connect, ...wait }));
  root.use(createConversation(createBuyConversation(deps), { id: conversationIds.buy, ...wait }));
  root.use(createConversation(createPinConversation(deps), { id: conversationIds.pin, ...wait }));
  root.use(createConversation(createOrderConversation(deps), { id: conversationIds.order, ...wait }));
  root.use(createConversation(createShopConversation(deps), { id: conversationIds.shop, ...wait }));
  root.use(createConversation(createSellConversation(deps), { id: conversationIds.sell, ...wait }));

  // Private-only commands used in a group get their one answer here, before any feature.
  root.use(privateOnlyAnswer);
  // With DOWNLINES off, /downline and invite links reach nothing here (unknown, as before).
  // Before /start (it answers invite links) and /connect (a downline connects no reseller account).
  if (deps.settings.downlines) root.use(privateOnlyDownlineAnswer, downlinesFeature);
  // Before /saldo: a downline's /saldo is their wallet, not a provider balance.
  if (deps.settings.downlines) root.use(walletFeature);
  if (deps.settings.downlines) root.use(heldFeature);
  // Before /laporan and /ekspor: `/laporan dl …` and `/ekspor dl …` are an upline's reports of their downlines.
  if (deps.settings.downlines) root.use(downlineReportsFeature);
  // Before /start (it answers `/start inline`) and before anything that reads plain messages.
  root.use(inlineFeature);
  root.use(startFeature);
  root.use(languageFeature);
  root.use(settingsFeature);
  root.use(connectFeature);
  root.use(balanceFeature);
  root.use(pricesFeature);
  root.use(statusFeature);
  root.use(historyFeature);
  root.use(exportFeature);
  root.use(reportFeature);
  root.use(sellFeature);
  root.use(receiptFeature);
  root.use(groupsFeature);
  root.use(marketplaceFeature);
  root.use(gameshopFeature);
  root.use(alertFeature);
  root.use(watchFeature);
  root.use(adminFeature);
  root.use(broadcastFeature);
  // Last before the fallback: quick-buy reads plain CODE.TARGET text.
  root.use(buyFeature);
  // Typed words search the price list (after quick-buy, which reads CODE.TARGET).
  root.use(priceSearchFeature);

  root.use(unhandledFeature);
  bot.catch(handleBotError);
  return bot;
}
