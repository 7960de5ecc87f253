/**
 * Telegram updates as the inbox stores them: sealed with the vault above the contract (AAD
 * `inbox:<id>`), since a message may hold a PIN or an API key; the chat id stays readable.
 */
import type { Update } from 'grammy/types';
import type { Vault } from '../vault.ts';

/** A Telegram update as the inbox stores it (`sealUpdate`). */
export interface SealedUpdate {
  id: number;
  sealed: string;
  /** `updateChatId`, kept readable for per-chat order. */
  chatId?: number;
}

/** The vault AAD of one stored update. */
export function inboxAad(updateId: number): string {
  return `inbox:${updateId}`;
}

/**
 * The chat an update belongs to, for per-chat order and the chat lock: its chat, or its sender's
 * private chat (a callback query from an inline message has no chat).
 */
export function updateChatId(update: Update): number | undefined {
  return update.message?.chat.id ?? update.callback_query?.message?.chat.id ?? update.message?.from?.id ?? update.callback_query?.from.id;
}

/** Seals an update for the inbox. */
export function sealUpdate(vault: Vault, update: Update): SealedUpdate {
  const chatId = updateChatId(update);
  return {
    id: update.update_id,
    sealed: vault.encrypt(JSON.stringify(update), inboxAad(update.update_id)),
    ...(chatId === undefined ? {} : { chatId }),
  };
}
