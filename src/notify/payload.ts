/** What an outbox item asks Telegram to do, validated when read: a malformed item is logged and dropped, not retried forever. */
import type { Api } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import { z } from 'zod';

const inlineButtonSchema = z
  .object({ text: z.string().min(1) })
  .catchall(z.unknown())
  .refine((button) => Object.keys(button).length > 1, { message: 'an inline button needs an action (callback_data, url, ...)' });

/** An inline keyboard in Telegram's own shape (`{ inline_keyboard: [[{ text, callback_data }]] }`). */
const inlineKeyboardSchema = z.object({ inline_keyboard: z.array(z.array(inlineButtonSchema)) });

const formatting = {
  /** Message text; the caption when `photo` is set. */
  text: z.string().min(1).max(4096),
  /** Omit for plain text. */
  parseMode: z.literal('HTML').optional(),
  replyMarkup: inlineKeyboardSchema.optional(),
  /** `false` hides the link preview. */
  linkPreview: z.boolean().optional(),
};

/** A new message. */
const sendPayloadSchema = z
  .object({
    type: z.literal('send'),
    ...formatting,
    /** A photo (file_id or HTTPS URL) sent with `text` as its caption (at most 1024 characters). */
    photo: z.string().min(1).optional(),
    /** Deliver without a notification sound. */
    silent: z.boolean().optional(),
    /** Shown as a reply to this message of the same chat (sent anyway if that message is gone). */
    replyTo: z.number().int().positive().optional(),
  })
  .refine((payload) => payload.photo === undefined || payload.text.length <= 1024, {
    message: 'a photo caption holds at most 1024 characters',
    path: ['text'],
  });

/** An edit of a text message the bot sent earlier; dropped if gone, too old or unchanged, unless `sendIfGone` sends it anew. */
const editPayloadSchema = z.object({
  type: z.literal('edit'),
  messageId: z.number().int().positive(),
  ...formatting,
  sendIfGone: z.boolean().optional(),
});

export const outboxPayloadSchema = z.discriminatedUnion('type', [sendPayloadSchema, editPayloadSchema]);

type SendPayload = z.infer<typeof sendPayloadSchema>;
/** The payload of an outbox item (`NewOutboxItem.payload`); build one with `satisfies OutboxPayload`. */
export type OutboxPayload = z.infer<typeof outboxPayloadSchema>;

/** grammY types its signal with the abort-controller shim; Node's own AbortSignal is what it uses at run time. */
type ApiSignal = Parameters<Api['sendMessage']>[3];

/** Makes one Bot API call for `payload` (send, photo or edit), abandoned after `timeoutMs`; resolves the message id. */
export async function deliverPayload(api: Api, chatId: number, payload: OutboxPayload, timeoutMs: number): Promise<number> {
  const signal = AbortSignal.timeout(timeoutMs) as unknown as ApiSignal;
  const common = { parse_mode: payload.parseMode, reply_markup: payload.replyMarkup as unknown as InlineKeyboardMarkup | undefined };
  const preview = payload.linkPreview === false ? { link_preview_options: { is_disabled: true } } : {};
  if (payload.type === 'edit') {
    const edited = await api.editMessageText(chatId, payload.messageId, payload.text, { ...common, ...preview }, signal);
    return edited === true ? payload.messageId : edited.message_id;
  }
  const silent = payload.silent ? { disable_notification: true } : {};
  const reply =
    payload.replyTo === undefined ? {} : { reply_parameters: { message_id: payload.replyTo, allow_sending_without_reply: true } };
  if (payload.photo !== undefined) {
    return (await api.sendPhoto(chatId, payload.photo, { caption: payload.text, ...common, ...silent, ...reply }, signal)).message_id;
  }
  return (await api.sendMessage(chatId, payload.text, { ...common, ...preview, ...silent, ...reply }, signal)).message_id;
}

/** The same text as a new message (what an edit that can no longer be made becomes). */
export function asSend(payload: OutboxPayload): SendPayload {
  const { text, parseMode, replyMarkup, linkPreview } = payload;
  return { type: 'send', text, parseMode, replyMarkup, linkPreview };
}
