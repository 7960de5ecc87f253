import { fileURLToPath } from 'node:url';
import { I18n } from '@grammyjs/i18n';
import type { Context } from 'grammy';
import type { Locale } from '../domain.ts';
import type { Store } from '../store/store.ts';

export const localesDirectory = fileURLToPath(new URL('../../locales', import.meta.url));

/** Maps a Telegram `language_code` to a supported locale: Indonesian, Malay and Javanese speakers get Indonesian. */
export function localeFromTelegram(languageCode: string | undefined): Locale | undefined {
  if (!languageCode) return undefined;
  const base = languageCode.toLowerCase().split('-')[0];
  if (base === 'id' || base === 'in' || base === 'ms' || base === 'jv' || base === 'su') return 'id';
  if (base === 'en') return 'en';
  return undefined;
}

/**
 * Creates the i18n plugin. The locale is the one the user chose with /language, else the one of
 * their Telegram app when we speak it, else the default. Fluent files live in `locales/<locale>/`,
 * one file per feature.
 */
export function createI18n<C extends Context>(options: { defaultLocale: Locale; store: Store }): I18n<C> {
  return new I18n<C>({
    defaultLocale: options.defaultLocale,
    directory: localesDirectory,
    useSession: false,
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: (ctx) => {
      const id = ctx.from?.id;
      const stored = id === undefined ? undefined : options.store.users.get(id)?.locale;
      return stored ?? localeFromTelegram(ctx.from?.language_code) ?? options.defaultLocale;
    },
  });
}
