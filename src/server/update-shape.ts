/**
 * The shape of an update posted to the webhook, checked before anything reads it: a body with an
 * update id but fields of the wrong types would otherwise throw, get a 500 and be posted again and
 * again. Only the fields the bot reads are checked; Telegram's own updates always pass.
 */
import { z } from 'zod';
import type { Update } from 'grammy/types';

const user = z.looseObject({
  id: z.number().int(),
  is_bot: z.boolean(),
  first_name: z.string(),
  last_name: z.string().optional(),
  username: z.string().optional(),
  language_code: z.string().optional(),
});

const chat = z.looseObject({ id: z.number().int(), type: z.string(), title: z.string().optional(), first_name: z.string().optional() });

const entity = z.looseObject({ type: z.string(), offset: z.number().int().nonnegative(), length: z.number().int().nonnegative() });

const messageFields = {
  message_id: z.number().int(),
  date: z.number(),
  chat,
  from: user.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  entities: z.array(entity).optional(),
  caption_entities: z.array(entity).optional(),
};

const message = z.looseObject({ ...messageFields, reply_to_message: z.looseObject(messageFields).optional() });

const member = z.looseObject({ status: z.string(), user });

const memberUpdate = z.looseObject({ chat, from: user, date: z.number(), old_chat_member: member, new_chat_member: member });

const update = z.looseObject({
  update_id: z.number().int().nonnegative(),
  message: message.optional(),
  edited_message: message.optional(),
  callback_query: z
    .looseObject({
      id: z.string(),
      from: user,
      chat_instance: z.string(),
      data: z.string().optional(),
      message: z.looseObject(messageFields).optional(),
    })
    .optional(),
  inline_query: z.looseObject({ id: z.string(), from: user, query: z.string(), offset: z.string() }).optional(),
  my_chat_member: memberUpdate.optional(),
  chat_member: memberUpdate.optional(),
});

/** How a posted body reads: an update, an update id whose update has fields of the wrong types (`field` names the first), or nothing usable. */
export type UpdateRead = { update: Update } | { updateId: number; field: string } | { notAnUpdate: true };

/**
 * Reads a webhook body: `{ update }` when it is an update the bot can handle; `{ updateId, field }`
 * when it carries an update id but a field of the wrong type (the path of the first such field,
 * never its value: the text may be a secret); `{ notAnUpdate }` for anything else (not JSON, no
 * update id, or one that is not a non-negative integer).
 */
export function readUpdate(body: string): UpdateRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { notAnUpdate: true };
  }
  const updateId = typeof parsed === 'object' && parsed !== null ? (parsed as { update_id?: unknown }).update_id : undefined;
  if (typeof updateId !== 'number' || !Number.isSafeInteger(updateId) || updateId < 0) return { notAnUpdate: true };
  const checked = update.safeParse(parsed);
  if (checked.success) return { update: parsed as Update };
  return { updateId, field: checked.error.issues[0]?.path.join('.') ?? '' };
}
