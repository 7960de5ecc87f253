/**
 * Names every layer shares (store, providers, services, bot, config), defined once here, below all
 * of them, so each layer imports them downward. The store validates both with the schemas below.
 */
import { z } from 'zod';

/** The services a user connects with their own credentials: reseller top-up API, marketplace, game shop. */
export const serviceNames = ['reseller', 'marketplace', 'gameshop'] as const;
export type ServiceName = (typeof serviceNames)[number];
export const serviceNameSchema = z.enum(serviceNames);

/** The languages the bot speaks; Indonesian first (the default). */
export const supportedLocales = ['id', 'en'] as const;
export type Locale = (typeof supportedLocales)[number];
export const localeSchema = z.enum(supportedLocales);

/** True for a supported locale (e.g. one from callback data). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (supportedLocales as readonly string[]).includes(value);
}
