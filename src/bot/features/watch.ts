import { InlineKeyboard } from 'grammy';
import { createCallbackData } from 'callback-data';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { editInPlace } from '../edits.ts';
import { readTap, requireTrading } from '../guards.ts';
import { matchBrands, type PriceWatchSettings } from '../../services/price-watch.ts';
import { FastComposer } from '../composer.ts';

/**
 * /pantau (/watch): price-change alerts. `/pantau` shows the settings with buttons (on/off, every
 * brand or a chosen few, the linked group too); `/pantau telkomsel xl` follows those brands,
 * `/pantau semua` every brand, `/pantau off` stops. Private chats only; needs a trading account:
 * the user's own reseller account, or as a downline their upline's (their digest is of their
 * level's prices).
 */
export const watchFeature = new FastComposer<BotContext>();
/** `on`, `off`, `all` (every brand), `group` (toggle the group copy), `brand` with the brand to toggle (lower case). */
const watchData = createCallbackData('watch', { action: String, brand: String });

const offWords = new Set(['off', 'mati', 'stop', 'berhenti']);
const allWords = new Set(['on', 'semua', 'all', 'aktif']);
/** Telegram's limit for callback data. */
const maxCallbackBytes = 64;

/** The brands of the user's price list, or undefined when it cannot be fetched now. */
async function brandsOf(ctx: BotContext, userId: number): Promise<string[] | undefined> {
  const { catalogue } = ctx.deps.services;
  try {
    return catalogue.brands(await catalogue.priceList(userId)).map((group) => group.brand);
  } catch (error) {
    ctx.deps.logger.warn('price watch: brands not available', { userId, error });
    return undefined;
  }
}

/** The settings screen: text and buttons. */
async function screen(ctx: BotContext, userId: number): Promise<{ text: string; keyboard: InlineKeyboard }> {
  const settings = await ctx.deps.services.priceWatch.settings(userId);
  const brands = await brandsOf(ctx, userId);
  const group = (await ctx.deps.db.groups.byOwner(userId))[0];
  const followed = new Set(settings?.brands ?? []);
  const named = (brands ?? []).filter((brand) => followed.has(brand.toLowerCase()));
  const lines = [ctx.t('watch-title'), ctx.t(settings ? 'watch-status-on' : 'watch-status-off')];
  if (settings)
    lines.push(
      followed.size === 0
        ? ctx.t('watch-brands-all')
        : ctx.t('watch-brands-some', { brands: named.join(', ') || [...followed].join(', ') }),
    );
  if (!group) lines.push(ctx.t('watch-group-none'));
  else lines.push(ctx.t(settings?.group ? 'watch-group-on' : 'watch-group-off', { title: group.title ?? String(group.chatId) }));
  if (!brands) lines.push(ctx.t('watch-brands-unavailable'));
  lines.push('', ctx.t('watch-hint'));

  const button = (label: string, action: string, brand = '') => InlineKeyboard.text(label, watchData.pack({ action, brand }));
  const keyboard = new InlineKeyboard();
  keyboard.add(settings ? button(ctx.t('watch-button-off'), 'off') : button(ctx.t('watch-button-on'), 'on'));
  keyboard.add(button(`${settings && followed.size === 0 ? '✅ ' : ''}${ctx.t('watch-button-all')}`, 'all')).row();
  const brandButtons = (brands ?? [])
    .filter((brand) => Buffer.byteLength(watchData.pack({ action: 'brand', brand: brand.toLowerCase() })) <= maxCallbackBytes)
    .map((brand) => button(`${followed.has(brand.toLowerCase()) ? '✅ ' : ''}${brand}`, 'brand', brand.toLowerCase()));
  brandButtons.forEach((b, index) => {
    keyboard.add(b);
    if (index % 3 === 2) keyboard.row();
  });
  if (brandButtons.length % 3 !== 0) keyboard.row();
  if (group) keyboard.add(button(ctx.t(settings?.group ? 'watch-button-group-off' : 'watch-button-group-on'), 'group'));
  return { text: lines.join('\n'), keyboard };
}

/** The user's settings after one choice (a tap or typed words); undefined: unsubscribed. */
function changed(current: PriceWatchSettings | undefined, action: string, brand: string): PriceWatchSettings | undefined {
  const base = current ?? { brands: [], group: false };
  switch (action) {
    case 'off':
      return undefined;
    case 'on':
      return base;
    case 'all':
      return { ...base, brands: [] };
    case 'group':
      return { ...base, group: !base.group };
    default: {
      // Tapping a brand while every brand is followed narrows to that brand; the last one removed means every brand again.
      const brands = base.brands.includes(brand) ? base.brands.filter((b) => b !== brand) : [...base.brands, brand];
      return { ...base, brands };
    }
  }
}

const privateChats = watchFeature.chatType('private');

privateChats.command(commandNames('watch'), async (ctx) => {
  const userId = ctx.from.id;
  if (!(await requireTrading(ctx, ctx.deps))) return;
  const { priceWatch } = ctx.deps.services;
  const words = ctx.match.trim().toLowerCase();
  if (offWords.has(words)) {
    await priceWatch.update(userId, undefined);
    await ctx.reply(ctx.t('watch-unsubscribed'));
    return;
  }
  if (allWords.has(words)) {
    await priceWatch.update(userId, changed(await priceWatch.settings(userId), 'all', ''));
  } else if (words !== '') {
    const brands = await brandsOf(ctx, userId);
    const { found, unknown } = matchBrands(words, brands ?? []);
    if (found.length > 0) {
      const current = await priceWatch.settings(userId);
      await priceWatch.update(userId, { group: current?.group ?? false, brands: found });
    }
    if (unknown.length > 0) await ctx.reply(ctx.t('watch-unknown-brands', { words: unknown.join(', ') }));
  }
  const { text, keyboard } = await screen(ctx, userId);
  await ctx.reply(text, { reply_markup: keyboard });
});

watchFeature.callbackQuery(watchData.filter(), async (ctx) => {
  const userId = ctx.from.id;
  const connected = await ctx.deps.services.trading.canTrade(userId);
  const data = await readTap(ctx, watchData, (fields) => (connected ? fields : undefined), { privateOnly: true });
  if (!data) return;
  const { priceWatch } = ctx.deps.services;
  const next = changed(await priceWatch.settings(userId), data.action, data.brand);
  await priceWatch.update(userId, next);
  await ctx.answerCallbackQuery({ text: ctx.t(next ? 'watch-saved' : 'watch-unsubscribed') });
  const { text, keyboard } = await screen(ctx, userId);
  await editInPlace(ctx, text, keyboard);
});
