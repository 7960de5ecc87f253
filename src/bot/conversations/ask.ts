/**
 * Asking inside a conversation: one way to wait for an answer, one rule for what a flow answers on
 * the side and what leaves it, and deleting a message that carried a secret. Used by every flow.
 */
import type { Context, MiddlewareFn } from 'grammy';
import type { Conversation } from '@grammyjs/conversations';
import type { BotContext, BotConversation, BotDeps, ConversationContext, PendingQuestion } from '../context.ts';
import { commandNames, type CommandName } from '../commands.ts';
import { balanceRefreshData } from '../callback-data/balance.ts';
import { priceViewData } from '../callback-data/prices.ts';
import { historyDetailData, historyPageData } from '../callback-data/history.ts';
import { exportPeriodData, exportSeparatorData } from '../callback-data/export.ts';
import { reportPeriodData } from '../callback-data/report.ts';
import { buyAgainCancelData, customerReceiptData } from '../callback-data/receipt.ts';
import { statusCheckData, statusListData } from '../callback-data/status.ts';
import { shopData } from '../callback-data/shop.ts';
import { pinData } from '../callback-data/pin.ts';
import { sellStepData } from '../callback-data/sell.ts';
import { buyData } from '../callback-data/buy.ts';
import { buyPickerData } from '../callback-data/buy-picker.ts';
import { orderConfirmData, orderStepData } from '../callback-data/gameshop.ts';

/** The user and chat ids of a private-chat flow, or undefined after saying it works only in a private chat. */
export async function privateChatOf(ctx: ConversationContext): Promise<{ userId: number; chatId: number } | undefined> {
  if (ctx.chat?.type !== 'private' || ctx.from === undefined) {
    await ctx.reply(ctx.t('error-private-only'));
    return undefined;
  }
  return { userId: ctx.from.id, chatId: ctx.chat.id };
}

/**
 * Deletes `message`, which carried a secret (an API key, a PIN): true when done; false after
 * logging why Telegram refused (once, through `external`), so the caller asks the user to delete it.
 */
export async function deleteSecretMessage(conversation: BotConversation, deps: BotDeps, message: ConversationContext): Promise<boolean> {
  try {
    await message.deleteMessage();
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const ids = { chatId: message.chat?.id, messageId: message.msg?.message_id };
    await conversation.external(() =>
      deps.logger.warn('could not delete a message that carried a secret; the user was asked to delete it', { ...ids, reason }),
    );
    return false;
  }
}

/**
 * Commands that only show something. Inside a flow they are answered by their feature as usual,
 * then the flow's pending question is asked again and the flow goes on. Every alias and any case
 * counts, and so do the main menu's buttons (turned into these commands, see menu-buttons.ts).
 */
export const infoCommands = [
  'help',
  'balance',
  'prices',
  'status',
  'history',
  'export',
  'report',
  'settings',
] as const satisfies readonly CommandName[];
const infoCommandWords = new Set<string>(infoCommands.flatMap((name) => commandNames(name)));

/**
 * Buttons that only show something (price and history pages, status checks, balance refresh, the
 * export menu, a customer receipt): tapped inside a flow they do their thing and the flow goes on.
 * (The price list's search and product buttons ask or buy: they leave the flow.)
 */
const infoButtons = [
  balanceRefreshData,
  priceViewData,
  historyPageData,
  historyDetailData,
  statusCheckData,
  statusListData,
  exportPeriodData,
  exportSeparatorData,
  reportPeriodData,
  customerReceiptData,
];

/**
 * Buttons that only a running flow acts on (its questions, pickers and summaries). Outside their
 * flow they are only answered as outdated, so a tap on one during another flow is passed on for
 * that answer and does not end the flow under way.
 */
const flowOnlyButtons = [shopData, pinData, sellStepData, buyData, buyPickerData, orderStepData, orderConfirmData, buyAgainCancelData];

/** True for a tap on a button of a flow other than this one (an outdated button: see `flowOnlyButtons`). */
function isOtherFlowButton(ctx: Context, ownsButton: (data: string | undefined) => boolean): boolean {
  const data = ctx.callbackQuery?.data;
  return data !== undefined && !ownsButton(data) && flowOnlyButtons.some((button) => button.filter().test(data));
}

/** The command word of a message starting with `/` (lower-case, without `@bot`), or undefined. */
function commandOf(ctx: Context): string | undefined {
  const text = (ctx.message?.text ?? '').trim();
  if (!text.startsWith('/')) return undefined;
  const word = text.slice(1).split(/\s/, 1)[0] ?? '';
  return (word.split('@', 1)[0] ?? '').toLowerCase();
}

/** True for an information command (see `infoCommands`) or a tap on an information button. */
export function isInfoRequest(ctx: Context): boolean {
  const data = ctx.callbackQuery?.data;
  if (data !== undefined) return infoButtons.some((button) => button.filter().test(data));
  const command = commandOf(ctx);
  return command !== undefined && infoCommandWords.has(command);
}

/**
 * The shared rule of every flow: a /command other than an information command, or a tap on
 * another feature's button, leaves the flow. The user is told which flow ended, and the update goes
 * on to the rest of the bot, so the command runs or the button does what it says.
 */
export function leavesFlow(ctx: Context, ownsButton: (data: string | undefined) => boolean): boolean {
  if (isInfoRequest(ctx) || isOtherFlowButton(ctx, ownsButton)) return false;
  if (ctx.callbackQuery) return !ownsButton(ctx.callbackQuery.data);
  return commandOf(ctx) !== undefined;
}

export interface WaitForAnswerOptions<C extends Context, T> {
  /** True for callback data of this flow's buttons (current or outdated ones). */
  ownsButton: (data: string | undefined) => boolean;
  /**
   * The question this wait answers, as it was sent (text and buttons): sent again after an
   * information command answered meanwhile. Undefined when there is nothing to ask again.
   */
  repeat: PendingQuestion | undefined;
  /**
   * The answer this update carries, or undefined when it is none (then `otherwise` runs and the
   * update is skipped: it is not kept in the conversation state). Called more than once per update,
   * so it must be pure.
   */
  accept: (ctx: C) => T | undefined;
  /** Answers an update that is not an answer: a hint for a message, a short note for an old button. */
  otherwise: (ctx: C) => unknown;
  /**
   * Updates that leave this step besides the shared rule (e.g. a new quick-buy message while a
   * summary waits). Pure, like `accept`.
   */
  alsoLeaves?: (ctx: C) => boolean;
  /** Runs before the flow is left (e.g. to close a summary's buttons). */
  leave?: () => Promise<void>;
  /** What the flow was about, said when it is left (e.g. a summary's lines: "TSEL10 → 0812…"). */
  leftWhat?: string;
}

/**
 * Waits (with the conversation's timeout) for the next update that answers the question:
 * `conversation.waitUntil` with `otherwise`, plus the shared rules. Skipped and passed on to the
 * rest of the bot: updates that are neither messages nor taps, another flow's outdated buttons and
 * information requests (a message one also leaves `repeat` for `askAgainAfterInfo`). A skipped
 * update is not kept in the state, so replays and restarts see the flow still waiting here. A
 * leaving update marks the outside context (`leftFlow`, said by the exit handler) before the halt.
 */
export async function waitForAnswer<C extends Context, T>(
  conversation: Conversation<BotContext, C>,
  options: WaitForAnswerOptions<C, T>,
): Promise<T> {
  const leaves = (ctx: C) => leavesFlow(ctx, options.ownsButton) || (options.alsoLeaves?.(ctx) ?? false);
  const passedOn = (next: C) => isInfoRequest(next) || isOtherFlowButton(next, options.ownsButton);
  const ctx = await conversation.waitUntil(
    (next) => passedOn(next) || leaves(next) || (!next.message && !next.callbackQuery) || options.accept(next) !== undefined,
    {
      otherwise: options.otherwise,
    },
  );
  if (isOtherFlowButton(ctx, options.ownsButton)) return conversation.skip({ next: true });
  if (isInfoRequest(ctx)) {
    const question = ctx.message ? options.repeat : undefined;
    if (question) {
      await conversation.external((outside) => {
        outside.askAgain = question;
      });
    }
    return conversation.skip({ next: true });
  }
  if (leaves(ctx)) {
    await options.leave?.();
    await conversation.external((outside) => {
      outside.leftFlow = true;
      if (options.leftWhat !== undefined) outside.leftFlowWhat = options.leftWhat;
    });
    return conversation.halt({ next: true });
  }
  const answer = options.accept(ctx);
  if (answer === undefined) return conversation.skip({ next: true });
  return answer;
}

/**
 * The outside half of the information rule, installed before the conversations: once the rest of
 * the bot has answered an information command that a flow passed on, the flow's pending question
 * is sent again, so it is the last thing in the chat and its buttons are at hand.
 */
export const askAgainAfterInfo: MiddlewareFn<BotContext> = async (ctx, next) => {
  await next();
  const question = ctx.askAgain;
  if (question) await ctx.reply(question.text, question.reply_markup ? { reply_markup: question.reply_markup } : {});
};
