import type { BroadcastService } from '../services/broadcasts.ts';
import type { Context, Transformer } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { I18n, I18nFlavor } from '@grammyjs/i18n';
import type { Conversation, ConversationFlavor } from '@grammyjs/conversations';
import type { Locale } from '../domain.ts';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/db.ts';
import type { ClaimsConfig } from '../store/claim-holder.ts';
import type { UserRecord } from '../store/records/users.ts';
import type { Services } from '../services/services.ts';
import type { Notices } from '../notify/notices.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { OperatorFeed } from '../notify/operator-feed.ts';

/** Settings the bot reads; a slice of the app config so tests can build it by hand. */
export interface BotSettings {
  botToken: string;
  adminIds: readonly number[];
  adminChatId: number | undefined;
  /** The server IP a provider must whitelist, shown when a provider answers 403. */
  publicIp: string | undefined;
  defaultLocale: Locale;
  /** How long a conversation waits for the user's next message before it ends (ms). */
  conversationTimeoutMs: number;
  /** Path of the operator's game shop catalogue file (GAMESHOP_CATALOGUE), if any. */
  gameshopCataloguePath: string | undefined;
  /** Per-user flood limit; default `defaultFloodLimit` (15 updates in 3 s). Tests of long flows loosen it. */
  floodLimit?: FloodLimit;
  /** Its lease is how long the settlement watcher leaves a just-confirmed purchase to the flow sending it (whose instance may die). */
  claims: ClaimsConfig;
  /** DOWNLINES: the downline and wallet features answer (/downline, invite links, /deposit, /mutasi, /carabayar, /saldodl); off, they answer as unknown commands do. */
  downlines?: boolean;
}

/** More than `updates` updates from one user within `windowMs` get one "slow down" answer and are dropped. */
export interface FloodLimit {
  updates: number;
  windowMs: number;
}

/** Everything the bot needs from the outside, injected by the composition root. */
export interface BotDeps {
  settings: BotSettings;
  logger: Logger;
  db: Db;
  services: Services;
  /** Builds the messages the bot sends on its own (operator feed, notices). */
  notices: Notices;
  /** Queues outbox items and wakes the outbox. */
  enqueue: (items: NewOutboxItem[]) => Promise<void>;
  /** The operator feed's error reports, bursts grouped (ADMIN_CHAT_ID). */
  operatorFeed: OperatorFeed;
  /** Broadcast jobs (admins only). */
  broadcasts: BroadcastService;
  now: () => Date;
  /** The translations (locales/), shared by the bot, its conversations and the jobs. */
  i18n: I18n<ConversationContext>;
  /** Installed on every Api the bot replies with: makes replies share Telegram's overall limit with the outbox. */
  replyPacer?: Transformer;
}

interface Extras {
  /** The injected dependencies, the same object for every update. */
  deps: BotDeps;
  /** The sender's stored record (created on first contact); undefined for updates without a sender. */
  account: UserRecord | undefined;
  /** Set when a conversation's timeout ended it before this update: the fallback says which step expired. */
  expiredConversation?: string;
  /** A flow's pending question, asked again after the information command (/saldo …) it saw is answered (`askAgainAfterInfo`). */
  askAgain?: PendingQuestion;
  /** Many updates in hand as this one started (middlewares/crowd.ts): skip calls that only reassure, like "typing…". */
  crowded?: boolean;
  /** Set by a flow that ended because the user moved on (another command or feature's button): the exit says so. */
  leftFlow?: boolean;
  /** What that flow was about (`WaitForAnswerOptions.leftWhat`), when it said. */
  leftFlowWhat?: string;
  /** Set when this update's handling failed on a temporary problem and it will be handled again (src/server/update-inbox.ts). */
  handlingRetried?: boolean;
}

/** A flow's question as sent: its text (HTML) and buttons. */
export interface PendingQuestion {
  text: string;
  reply_markup?: InlineKeyboardMarkup;
}

/** Context of ordinary middleware. */
export type BotContext = ConversationFlavor<Context & I18nFlavor & Extras>;

/** Context inside conversations: a plain Context with the i18n plugin installed. */
export type ConversationContext = Context & I18nFlavor;

export type BotConversation = Conversation<BotContext, ConversationContext>;
