/**
 * Pure renderers of sell prices (/jual): the rules as the reseller reads them, and the compact
 * `Rp 10.150 → Rp 11.000 (+850)` figures the price list, search, purchase summary and history show.
 */
import type { TranslateFunction } from '@grammyjs/i18n';
import { formatMargin, formatRupiah } from '../../text/format.ts';
import { raw } from '../../text/html.ts';
import { hasSellRules, sellLimits, type Markup, type SellPrice, type SellRules } from '../../services/pricing.ts';

/** `cost → sell (+margin)`, a loss flagged (HTML-free; `t` escapes). */
export function sellFigures(t: TranslateFunction, price: Pick<SellPrice, 'cost' | 'sell' | 'margin'>): string {
  const values = { cost: formatRupiah(price.cost), sell: formatRupiah(price.sell), margin: formatMargin(price.margin) };
  return t(price.margin < 0 ? 'sell-figures-loss' : 'sell-figures', values);
}

/** A typed markup over `sellLimits`: what was typed (shortened) and the maximum of each kind. */
export function tooLargeText(t: TranslateFunction, typed: string): string {
  return t('sell-too-large', { text: typed.trim().slice(0, 40), rupiah: formatRupiah(sellLimits.rupiah), percent: sellLimits.percent });
}

/**
 * The refusal of a bare small number (`10`: 10% or Rp 10?) with both spellings to copy; `name`
 * prefixes them for an override line, `oneShot` words it for `/jual 10`.
 */
export function ambiguousText(
  t: TranslateFunction,
  typed: string,
  value: number,
  options: { name?: string; oneShot?: boolean } = {},
): string {
  const prefix = options.name === undefined ? '' : `${options.name} `;
  const sign = value < 0 ? '-' : '';
  const amount = Math.abs(value);
  return t(options.oneShot ? 'sell-ambiguous-oneshot' : 'sell-ambiguous', {
    text: typed.trim().slice(0, 40),
    percent: `${prefix}${sign}${amount}%`,
    rupiah: `${prefix}${sign}Rp ${amount}`,
  });
}

/** One rule as words: `+Rp 1.000`, `+2,5%`, `sell price Rp 12.500`. */
export function describeMarkup(t: TranslateFunction, markup: Markup): string {
  switch (markup.kind) {
    case 'fixed':
      return t('sell-markup-fixed', { sign: markup.amount < 0 ? '-' : '+', amount: formatRupiah(Math.abs(markup.amount)) });
    case 'percent':
      return t('sell-markup-percent', { sign: markup.percent < 0 ? '-' : '+', percent: Math.abs(markup.percent) });
    case 'price':
      return t('sell-markup-price', { price: formatRupiah(markup.price) });
  }
}

/** The rounding step as a word: `Rp 500`, or "not rounded". */
export function describeStep(t: TranslateFunction, step: number): string {
  return step <= 1 ? t('sell-step-none') : t('sell-step', { step: formatRupiah(step) });
}

/** The /jual screen: the default rule and step, the brand and product overrides, the order note. */
export function renderSellRules(t: TranslateFunction, rules: SellRules | undefined): string {
  const lines = [t('sell-title'), ''];
  if (!hasSellRules(rules)) {
    lines.push(t('sell-none'));
  } else {
    lines.push(rules.default ? t('sell-default', { markup: raw(describeMarkup(t, rules.default)) }) : t('sell-default-none'));
    lines.push(describeStep(t, rules.step));
    const overrides = (title: string, entries: Record<string, Markup>) => {
      const names = Object.keys(entries).sort();
      if (names.length === 0) return;
      lines.push('', t(title));
      for (const name of names) lines.push(t('sell-rule-line', { name, markup: raw(describeMarkup(t, entries[name]!)) }));
    };
    overrides('sell-brands-title', rules.brands);
    overrides('sell-products-title', rules.products);
  }
  lines.push('', t('sell-order-note'));
  return lines.join('\n');
}
