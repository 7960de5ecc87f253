/** Telegram updates for tests that handle raw updates (the inbox, the webhook, key rotation). */
import type { Update } from 'grammy/types';

/** A text message from `user` in their private chat, as update `updateId` (also its message id). */
export function privateTextUpdate(
  updateId: number,
  text: string,
  user: { id: number; firstName: string } = { id: 42, firstName: 'Budi' },
): Update {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: 0,
      chat: { id: user.id, type: 'private', first_name: user.firstName },
      from: { id: user.id, is_bot: false, first_name: user.firstName },
      text,
    },
  };
}
