/** Asking inside a conversation: the one wait every flow uses, the rule for what leaves a flow, deleting secrets. */
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

/** Deletes `message`, which carried a secret: false after logging why Telegram refused (the caller asks the user to delete it). */
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
 * Commands that only show something: inside a flow their feature answers, then the pending question
 * is asked again and the flow goes on. Any alias or case counts, and the main menu's buttons (menu-buttons.ts).
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

/** Buttons that only show something: tapped inside a flow they do their thing and the flow goes on. */
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

/** Buttons only their own running flow acts on: tapped during another flow they are passed on (answered as outdated), not a leave. */
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

/** A /command other than an information command, or another feature's button, leaves the flow (and goes on to the bot). */
export function leavesFlow(ctx: Context, ownsButton: (data: string | undefined) => boolean): boolean {
  if (isInfoRequest(ctx) || isOtherFlowButton(ctx, ownsButton)) return false;
  if (ctx.callbackQuery) return !ownsButton(ctx.callbackQuery.data);
  return commandOf(ctx) !== undefined;
}

export interface WaitForAnswerOptions<C extends Context, T> {
  /** True for callback data of this flow's buttons (current or outdated ones). */
  ownsButton: (data: string | undefined) => boolean;
  /** The question as sent, sent again after an information command answered meanwhile. */
  repeat: PendingQuestion | undefined;
  /** The answer this update carries, or undefined (then `otherwise` runs and the update is skipped). Pure: called more than once. */
  accept: (ctx: C) => T | undefined;
  /** Answers an update that is not an answer: a hint for a message, a short note for an old button. */
  otherwise: (ctx: C) => unknown;
  /** Updates that leave this step besides the shared rule (e.g. a new quick-buy message at a summary). Pure. */
  alsoLeaves?: (ctx: C) => boolean;
  /** Runs before the flow is left (e.g. to close a summary's buttons). */
  leave?: () => Promise<void>;
  /** What the flow was about, said when it is left (e.g. "TSEL10 → 0812…"). */
  leftWhat?: string;
}

/**
 * `conversation.waitUntil` with `otherwise`, plus the shared rules. Skipped (not kept in the state,
 * so a replay still waits here) and passed on: updates that are neither messages nor taps, another
 * flow's outdated buttons, information requests (a message one leaves `repeat` for `askAgainAfterInfo`).
 * A leaving update marks the outside context (`leftFlow`, said by the exit handler) before the halt.
 */
export async function waitForAnswer<C extends Context, T>(
  conversation: Conversation<BotContext, C>,
  options: WaitForAnswerOptions<C, T>,
): Promise<T> {
  const leaves = (ctx: C) => leavesFlow(ctx, options.ownsButton) || (options.alsoLeaves?.(ctx) ?? false);
  const passedOn = (next: C) => isInfoRequest(next) || isOtherFlowButton(next, options.ownsButton);
  const ctx = await conversation.waitUntil(
    (next) => passedOn(next) || leaves(next) || (!next.message && !next.callbackQuery) || options.accept(next) !== undefined,
    { otherwise: options.otherwise },
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

/** Installed before the conversations: once the bot answered an information command a flow passed on, its question is sent again. */
export const askAgainAfterInfo: MiddlewareFn<BotContext> = async (ctx, next) => {
  await next();
  const question = ctx.askAgain;
  if (question) await ctx.reply(question.text, question.reply_markup ? { reply_markup: question.reply_markup } : {});
};
