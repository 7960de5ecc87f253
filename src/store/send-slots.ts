/**
 * Send slots (the contract's `sendSlots`): the arithmetic both engines share, and the lowdb
 * engine's in-process reservations. Slot `k` starts at ceil(k * 1000 / perSecond) ms, one message
 * each, so any 1,000 ms holds at most perSecond; a chat's next message goes `gapOf` after its last.
 */
import type { FleetLimits, SendSlotStore } from './contract.ts';

/** The first slot that starts at or after `atMs`. */
export const slotAt = (atMs: number, perSecond: number) => Math.ceil((atMs * perSecond) / 1000);
/** When slot `slot` starts (ms). */
export const slotStart = (slot: number, perSecond: number) => Math.ceil((slot * 1000) / perSecond);

/** The pause after a message to `chatId` before the next one: a group's is long enough for its per-minute limit. */
export function gapOf(chatId: number, limits: FleetLimits): number {
  return chatId < 0 ? Math.max(limits.perChatMs, Math.ceil(60_000 / limits.perGroupPerMinute)) : limits.perChatMs;
}

/** Reservations held in this process's memory (slots and each chat's next free instant). */
export function createLocalSendSlots(): SendSlotStore {
  const taken = new Map<number, Set<number>>();
  const nextAt = new Map<number, number>();
  return {
    reserve(chatId, atMs, limits) {
      const slots = taken.get(limits.perSecond) ?? new Set<number>();
      taken.set(limits.perSecond, slots);
      let slot = slotAt(Math.max(atMs, nextAt.get(chatId) ?? -Infinity), limits.perSecond);
      while (slots.has(slot)) slot += 1;
      slots.add(slot);
      const at = slotStart(slot, limits.perSecond);
      nextAt.set(chatId, at + gapOf(chatId, limits));
      // Now and then, slots a minute in the past are forgotten, and chats whose next instant passed.
      if (slots.size > 4096 || nextAt.size > 4096) {
        const old = slotAt(atMs - 60_000, limits.perSecond);
        for (const past of slots) if (past < old) slots.delete(past);
        for (const [chat, next] of nextAt) if (next < atMs - 60_000) nextAt.delete(chat);
      }
      return Promise.resolve(at);
    },
  };
}
