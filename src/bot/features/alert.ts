import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { formatRupiah } from '../../text/format.ts';
import { FastComposer } from '../composer.ts';

/** Largest threshold accepted (Rp 1 billion): anything above is a typo. */
const maxThreshold = 1_000_000_000;

/**
 * A whole rupiah amount as a reseller writes it: `50000`, `50.000`, `Rp 50.000`, `1,000,000`.
 * Separators must group thousands (`50,5` and `50.5` are refused, not read as 505).
 */
export function parseRupiah(text: string): number | undefined {
  const compact = text.replace(/^rp\.?\s*/i, '').replace(/\s/g, '');
  if (/^\d+$/.test(compact)) return Number(compact);
  const grouped = /^\d{1,3}(?:([.,])\d{3})(?:\1\d{3})*$/.exec(compact);
  return grouped ? Number(compact.replace(/[.,]/g, '')) : undefined;
}

/**
 * `/alert 50000` sets a low-balance threshold; `/alert off` removes it; `/alert` shows it. The
 * balance is checked after purchases and periodically, and each crossing is announced once.
 * Not for a downline (no provider account of their own): they are told so, and where their wallet is.
 */
export const alertFeature = new FastComposer<BotContext>();

alertFeature.chatType('private').command(commandNames('alert'), async (ctx) => {
  const { db } = ctx.deps;
  // A downline has no provider balance of their own to watch: their money is the wallet (/saldo).
  if (ctx.deps.settings.downlines && ctx.account?.membership) {
    await ctx.reply(ctx.t('alert-downline'));
    return;
  }
  const argument = ctx.match.trim().toLowerCase();
  if (argument === '') {
    const threshold = ctx.account?.alertThreshold;
    await ctx.reply(threshold === undefined ? ctx.t('alert-none') : ctx.t('alert-current', { amount: formatRupiah(threshold) }));
    return;
  }
  const amount = parseRupiah(argument);
  if (argument === 'off' || argument === 'mati' || amount === 0) {
    await ctx.deps.services.alerts.remove(ctx.from.id);
    await ctx.reply(ctx.t('alert-removed'));
    return;
  }
  if (amount === undefined || amount > maxThreshold) {
    await ctx.reply(ctx.t('alert-invalid'));
    return;
  }
  if (!(await db.credentials.has(ctx.from.id, 'reseller'))) {
    await ctx.reply(ctx.t('error-not-connected', { service: ctx.t('service-reseller') }));
    return;
  }
  const threshold = amount;
  await ctx.deps.services.alerts.set(ctx.from.id, threshold);
  await ctx.reply(ctx.t('alert-set', { amount: formatRupiah(threshold) }));
});
