import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { formatRupiah } from '../format.ts';

/** Largest threshold accepted (Rp 1 billion): anything above is a typo. */
const maxThreshold = 1_000_000_000;

/**
 * `/alert 50000` sets a low-balance threshold; `/alert off` removes it; `/alert` shows it. The
 * balance is checked after purchases and periodically, and each crossing is announced once.
 */
export const alertFeature = new Composer<BotContext>();

alertFeature.chatType('private').command(commandNames('alert'), async (ctx) => {
  const { store } = ctx.deps;
  const argument = ctx.match.trim().toLowerCase().replace(/^rp\.?\s*/, '').replace(/[.,\s]/g, '');
  if (argument === '') {
    const threshold = ctx.account?.alertThreshold;
    await ctx.reply(threshold === undefined ? ctx.t('alert-none') : ctx.t('alert-current', { amount: formatRupiah(threshold) }));
    return;
  }
  if (argument === 'off' || argument === 'mati' || argument === '0') {
    await store.users.update(ctx.from.id, { alertThreshold: undefined, alertArmed: undefined });
    await ctx.reply(ctx.t('alert-removed'));
    return;
  }
  if (!/^\d+$/.test(argument) || Number(argument) > maxThreshold) {
    await ctx.reply(ctx.t('alert-invalid'));
    return;
  }
  if (!store.credentials.has(ctx.from.id, 'reseller')) {
    await ctx.reply(ctx.t('error-not-connected', { service: ctx.t('service-reseller') }));
    return;
  }
  const threshold = Number(argument);
  await store.users.update(ctx.from.id, { alertThreshold: threshold, alertArmed: true });
  await ctx.reply(ctx.t('alert-set', { amount: formatRupiah(threshold) }));
  await ctx.deps.services.alerts.check(ctx.from.id);
});
