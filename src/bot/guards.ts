import { GrammyError, type Context, type InlineKeyboard } from 'grammy';
import type { I18nFlavor } from '@grammyjs/i18n';
import type { BotDeps } from './context.ts';
import type { AccountRef, Providers, ServiceCredentials, ServiceName } from '../providers/factory.ts';
import { describeProviderError } from './provider-errors.ts';

type AnyContext = Context & I18nFlavor;

/**
 * The sender's credentials for `service`, or undefined after telling them how to connect. Use
 * at the top of every handler that talks to a provider.
 */
export async function requireCredentials<S extends ServiceName>(
  ctx: AnyContext,
  deps: BotDeps,
  service: S,
): Promise<ServiceCredentials[S] | undefined> {
  const userId = ctx.from?.id;
  const credentials = userId === undefined ? undefined : deps.services.credentials.load(userId, service);
  if (!credentials) await ctx.reply(ctx.t('error-not-connected', { service: ctx.t(`service-${service}`) }));
  return credentials;
}

/**
 * A provider client for the sender's stored account of `service` (so a 401/403 it meets reaches
 * the operator feed), or undefined after telling them how to connect.
 */
export async function requireClient<S extends ServiceName>(ctx: AnyContext, deps: BotDeps, service: S): Promise<ReturnType<Providers[S]> | undefined> {
  const credentials = await requireCredentials(ctx, deps, service);
  const userId = ctx.from?.id;
  if (!credentials || userId === undefined) return undefined;
  const make = deps.providers[service] as (credentials: ServiceCredentials[S], account: AccountRef) => ReturnType<Providers[S]>;
  return make(credentials, { userId });
}

/** True in a private chat; otherwise tells the user to open one and returns false. */
export async function requirePrivateChat(ctx: AnyContext): Promise<boolean> {
  if (ctx.chat?.type === 'private') return true;
  await ctx.reply(ctx.t('error-private-only'));
  return false;
}

/**
 * Answers a failed provider call with a message that says what to do. Errors that are not
 * provider errors are re-thrown (they are bugs, for the error handler).
 */
export async function replyProviderError(ctx: AnyContext, deps: BotDeps, error: unknown): Promise<void> {
  const text = describeProviderError(ctx.t, error, deps.settings.publicIp);
  if (text === undefined) throw error;
  deps.logger.warn('provider call failed', { userId: ctx.from?.id, error });
  await ctx.reply(text);
}

/** Edits the tapped message (HTML); an edit that would change nothing is not an error. */
export async function editInPlace(ctx: AnyContext, text: string, keyboard: InlineKeyboard | undefined): Promise<void> {
  try {
    await ctx.editMessageText(text, { parse_mode: 'HTML', ...(keyboard ? { reply_markup: keyboard } : {}) });
  } catch (error) {
    if (error instanceof GrammyError && error.description.includes('message is not modified')) return;
    throw error;
  }
}
