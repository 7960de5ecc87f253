/** Indonesian that has leaked into English text: the dotted hour, Indonesian month names and words. */
import { expect } from 'vitest';

const indonesian = [
  /\d{2}\.\d{2} WIB/,
  /\b(Mei|Agu|Okt|Des)\b/,
  /\b(Sukses|Gagal|Ditolak|Diproses|gangguan|kosong|nonaktif|sampai|dikunci)\b/i,
];

/** Fails naming the pattern when `text` (an English screen) holds any of them. */
export function expectEnglish(text: string | undefined): void {
  for (const pattern of indonesian) expect(text, `${pattern} in:\n${text}`).not.toMatch(pattern);
}
