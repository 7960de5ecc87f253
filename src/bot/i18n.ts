import { fileURLToPath } from 'node:url';
import { I18n, type I18nFlavor, type LocaleId, type TranslateFunction, type TranslationVariables } from '@grammyjs/i18n';
import type { Context, MiddlewareFn } from 'grammy';
import { isLocale, type Locale } from '../domain.ts';
import type { Db } from '../store/db.ts';
import { escapeVariables } from '../text/html.ts';

export const localesDirectory = fileURLToPath(new URL('../../locales', import.meta.url));

/** Maps a Telegram `language_code` to a supported locale: Indonesian, Malay and Javanese speakers get Indonesian. */
export function localeFromTelegram(languageCode: string | undefined): Locale | undefined {
  if (!languageCode) return undefined;
  const base = languageCode.toLowerCase().split('-')[0];
  if (base === 'id' || base === 'in' || base === 'ms' || base === 'jv' || base === 'su') return 'id';
  if (base === 'en') return 'en';
  return undefined;
}

/** The locale `ctx.t` speaks (for what Fluent does not format itself, e.g. amounts in other currencies). */
export async function localeOf(ctx: I18nFlavor): Promise<Locale> {
  const locale = await ctx.i18n.getLocale();
  return isLocale(locale) ? locale : 'id';
}

/** Fluent negotiates the locale on every translation (a regex per locale); the answer is kept until a locale is added. */
function rememberBundleMatches(fluent: I18n['fluent']): void {
  const inner = fluent as unknown as { bundles?: Set<unknown>; matchBundles?: (locales: string[]) => Set<unknown> };
  // A later @grammyjs/i18n without these internals simply goes without the shortcut.
  if (typeof inner.matchBundles !== 'function' || !(inner.bundles instanceof Set)) return;
  const bundles = inner.bundles;
  const match = inner.matchBundles.bind(inner);
  const matches = new Map<string, Set<unknown>>();
  let bundleCount = bundles.size;
  inner.matchBundles = (locales) => {
    // A locale added since, or many odd locale lists asked for: start over.
    if (bundles.size !== bundleCount || matches.size > 64) {
      matches.clear();
      bundleCount = bundles.size;
    }
    const key = locales.join('\n');
    let found = matches.get(key);
    if (!found) matches.set(key, (found = match(locales)));
    return found;
  };
}

/** The i18n plugin whose translate functions (`ctx.t`, `i18n.t`) HTML-escape every variable not wrapped in `raw(...)`. */
class HtmlI18n<C extends Context> extends I18n<C> {
  constructor(config: ConstructorParameters<typeof I18n<C>>[0]) {
    super(config);
    rememberBundleMatches(this.fluent);
  }

  override translate<K extends string>(locale: LocaleId, key: string, variables?: TranslationVariables<K>): string {
    return super.translate(locale, key, escapeVariables(variables));
  }

  override middleware(): MiddlewareFn<C & I18nFlavor> {
    const plugin = super.middleware();
    return (ctx, next) =>
      plugin(ctx, async () => {
        const translate = ctx.translate;
        const escaping: TranslateFunction = (key, variables) => translate(key, escapeVariables(variables));
        ctx.translate = escaping;
        ctx.t = escaping;
        await next();
      });
  }
}

/** Creates the i18n plugin over `locales/<locale>/*.ftl`, speaking `senderLocale`. */
export function createI18n<C extends Context>(options: { defaultLocale: Locale; db: Db }): I18n<C> {
  return new HtmlI18n<C>({
    defaultLocale: options.defaultLocale,
    directory: localesDirectory,
    useSession: false,
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: (ctx) => senderLocale(options.db, ctx.from, options.defaultLocale),
  });
}

/** The locale the bot speaks to `from`: the one they chose with /language, else their Telegram app's when we speak it, else the default. */
export async function senderLocale(
  db: Pick<Db, 'users'>,
  from: { id: number; language_code?: string | undefined } | undefined,
  defaultLocale: Locale,
): Promise<Locale> {
  const stored = from === undefined ? undefined : (await db.users.get(from.id))?.locale;
  return stored ?? localeFromTelegram(from?.language_code) ?? defaultLocale;
}
