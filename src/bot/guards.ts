import type { CallbackQueryContext, Context, MiddlewareFn } from 'grammy';
import type { I18nFlavor } from '@grammyjs/i18n';
import type { BotContext, BotDeps } from './context.ts';
import { commandNames, commands, downlineCommands, type CommandName } from './commands.ts';
import type { ServiceName } from '../domain.ts';
import { providerFailureOf, type Providers } from '../services/providers.ts';
import { describeProviderError } from './provider-errors.ts';
import { FastComposer } from './composer.ts';
import { readCallback } from './callback-data/read.ts';

type AnyContext = Context & I18nFlavor;

/** True when the sender has connected `service`; otherwise tells them how to connect. */
export async function requireConnected(ctx: AnyContext, deps: BotDeps, service: ServiceName): Promise<boolean> {
  const userId = ctx.from?.id;
  if (userId !== undefined && (await deps.services.credentials.has(userId, service))) return true;
  await ctx.reply(notConnected(ctx, service));
  return false;
}

/**
 * True when the sender can read prices and buy: with their own reseller account, or as a downline
 * whose upline's account can sell; otherwise tells them why not (how to connect, or that the
 * upline's service is unavailable: never what is wrong with the upline's account).
 */
export async function requireTrading(ctx: AnyContext, deps: BotDeps): Promise<boolean> {
  const userId = ctx.from?.id;
  const account = userId === undefined ? undefined : await deps.services.trading.of(userId);
  if (account && (account.kind === 'own' || account.connected)) return true;
  await ctx.reply(account ? ctx.t('buy-downline-unavailable') : notConnected(ctx, 'reseller'));
  return false;
}

/** Middleware: goes on only when `requireTrading` holds. */
export const canTrade: MiddlewareFn<BotContext> = async (ctx, next) => {
  if (await requireTrading(ctx, ctx.deps)) await next();
};

/** A client for the sender's account of `service` (its 401/403 reach the operator feed), or undefined after saying how to connect. */
export async function requireClient<S extends ServiceName>(
  ctx: AnyContext,
  deps: BotDeps,
  service: S,
): Promise<ReturnType<Providers[S]> | undefined> {
  const userId = ctx.from?.id;
  const client = userId === undefined ? undefined : await deps.services.credentials.client(userId, service);
  if (!client) await ctx.reply(notConnected(ctx, service));
  return client;
}

const notConnected = (ctx: AnyContext, service: ServiceName): string =>
  ctx.t('error-not-connected', { service: ctx.t(`service-${service}`) });

/** The commands that only work in a private chat with the bot (`groups: 'refused'`). */
export const privateOnlyCommands: CommandName[] = commands.filter((c) => c.groups === 'refused').map((c) => c.name);

/** The one answer to a private-only command outside a private chat, installed before the features. */
export const privateOnlyAnswer = new FastComposer<BotContext>();
privateOnlyAnswer
  .drop((ctx) => ctx.chat?.type === 'private')
  .command(
    privateOnlyCommands.flatMap((name) => commandNames(name)),
    async (ctx) => {
      await ctx.reply(ctx.t('error-private-only'));
    },
  );

/** The same answer to the downline commands (DOWNLINES=true only: installed with the downline features). */
export const privateOnlyDownlineAnswer = new FastComposer<BotContext>();
privateOnlyDownlineAnswer
  .drop((ctx) => ctx.chat?.type === 'private')
  .command(
    downlineCommands.flatMap(({ name }) => commandNames(name)),
    async (ctx) => {
      await ctx.reply(ctx.t('error-private-only'));
    },
  );

/** Lets the update through only when the sender has connected `service`; otherwise says how to. */
export function connectedTo(service: ServiceName): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    if (await requireConnected(ctx, ctx.deps, service)) await next();
  };
}

/**
 * What `accept` makes of the tapped button's fields (unpacked by `data`), or undefined after
 * answering the tap as a button the bot does not know (old or forged data that does not unpack or
 * that `accept` refuses; with `privateOnly`, a tap outside a private chat too).
 */
export async function readTap<F, T>(
  ctx: CallbackQueryContext<BotContext>,
  data: { unpack(data: string): F },
  accept: (fields: F) => T | undefined,
  options: { privateOnly?: boolean } = {},
): Promise<T | undefined> {
  const value = readCallback(() => accept(data.unpack(ctx.callbackQuery.data)));
  if (value !== undefined && (!options.privateOnly || ctx.chat?.type === 'private')) return value;
  await ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback') });
  return undefined;
}

/** `call`'s result, or undefined after answering its provider failure (with `answerTap`, the tap first); other errors are thrown. */
export async function fromProvider<T>(
  ctx: AnyContext,
  deps: BotDeps,
  call: () => Promise<T>,
  options: { answerTap?: boolean } = {},
): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    const failure = providerFailureOf(error);
    if (options.answerTap) await ctx.answerCallbackQuery().catch(() => undefined);
    if (failure === undefined) throw error;
    deps.logger.warn('provider call failed', { userId: ctx.from?.id, error });
    await ctx.reply(describeProviderError(ctx.t, failure, deps.settings.publicIp));
    return undefined;
  }
}
