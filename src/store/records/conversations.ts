/**
 * Conversation states, sealed with the vault above the contract (AAD `conversation:<key>`): what a
 * user typed mid-flow, an API key included, no engine ever sees in plain text.
 */
import type { Vault } from '../vault.ts';

/** The vault AAD for one conversation state. */
export function conversationAad(key: string): string {
  return `conversation:${key}`;
}

/** Seals a conversation state (JSON) for `key`; undefined for a value JSON leaves out (deleting it). */
export function sealConversation(vault: Vault, key: string, value: unknown): string | undefined {
  const json = JSON.stringify(value);
  return json === undefined ? undefined : vault.encrypt(json, conversationAad(key));
}

/** Opens a token `sealConversation` made; undefined if it cannot be opened (the user starts over). */
export function openConversation(vault: Vault, key: string, sealed: string | undefined): unknown {
  if (sealed === undefined) return undefined;
  try {
    return JSON.parse(vault.decrypt(sealed, conversationAad(key))) as unknown;
  } catch {
    return undefined;
  }
}
