/** A moment in WIB as the bot writes it to a reader of `locale` (`22 Agu 2026 14.05 WIB`, `22 Aug 2026 14:05 WIB`). */
import { createI18n } from '../../src/bot/i18n.ts';
import type { Locale } from '../../src/domain.ts';
import type { Db } from '../../src/store/db.ts';
import { formatWibIn } from '../../src/text/format.ts';

const i18n = createI18n({ defaultLocale: 'id', db: {} as Db });

export function wibIn(locale: Locale, date: Date | string): string {
  return formatWibIn((key, variables) => i18n.t(locale, key, variables), date);
}
