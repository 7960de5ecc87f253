/**
 * The one place that knows Telegram's "message is not modified" (an edit that changes nothing is
 * no error), and the helpers for calls whose failure changes nothing for the user.
 */
import { GrammyError, type Context, type InlineKeyboard } from 'grammy';
import type { InlineKeyboardMarkup, LinkPreviewOptions } from 'grammy/types';

/** True when Telegram refused an edit because the message already reads exactly so. */
export function isNotModified(error: unknown): boolean {
  return error instanceof GrammyError && /message is not modified/i.test(error.description);
}

/** Swallows a failed Telegram call whose failure changes nothing for the user (an answer to an old query, an edit). */
export async function quietly(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch {
    // Nothing to do: the message is already as it should be, or the query expired.
  }
}

/** Edits the tapped message; false when it already read exactly so (a refresh that found nothing new). */
export async function editInPlace(
  ctx: Context,
  text: string,
  keyboard: InlineKeyboard | undefined,
  other: { link_preview_options?: LinkPreviewOptions } = {},
): Promise<boolean> {
  try {
    await ctx.editMessageText(text, { ...other, reply_markup: keyboard });
    return true;
  } catch (error) {
    if (isNotModified(error)) return false;
    throw error;
  }
}

/** Shows `text` in place of message `messageId` ("checking…"), or as a new message when the edit is refused; resolves with its id. */
export async function editOrReply(
  ctx: Context,
  messageId: number,
  text: string,
  other: { reply_markup?: InlineKeyboardMarkup } = {},
): Promise<number> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return (await ctx.reply(text, other)).message_id;
  try {
    await ctx.api.editMessageText(chatId, messageId, text, other);
    return messageId;
  } catch (error) {
    // Already showing this very text: sending it again would only repeat it.
    if (isNotModified(error)) return messageId;
    return (await ctx.reply(text, other)).message_id;
  }
}
