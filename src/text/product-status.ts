/**
 * A product's status as the reader's language says it. The price list's `status` is the
 * provider's own word (the spec names only `active`); the ones Indonesian providers commonly use
 * have a translation (`product-status-<word>`: Indonesian keeps the provider's word as it came,
 * English says "out of service", "out of stock", "inactive"); any other is shown verbatim.
 */
import type { TextTranslate } from './format.ts';

const knownStatuses = new Set(['gangguan', 'kosong', 'nonaktif']);

/** `status` in the reader's words (`gangguan` → "out of service" in English), else as the provider wrote it. */
export function productStatusWord(t: TextTranslate, status: string): string {
  const word = status.trim().toLowerCase();
  return knownStatuses.has(word) ? t(`product-status-${word}`, { status }) : status;
}
