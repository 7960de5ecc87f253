/** Pure renderers of the marketplace commands (HTML): /account, /items, an item's details, /verify. */
import type { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { Locale } from '../../domain.ts';
import { escapeHtml, formatMoney, formatWibIn, formatWibDateIn } from '../../text/format.ts';
import { raw } from '../../text/html.ts';
import { supportStateOf, type Account, type Item } from '../../services/providers.ts';
import type { VerifyOutcome } from '../../services/verification.ts';
import { createItemsKeyboard, shorten } from '../keyboards/marketplace.ts';
import { isButtonUrl } from '../keyboards/rows.ts';

/** Items per /items page. */
export const marketplaceItemsPerPage = 5;

/** Telegram's caption limit (characters after entity parsing). */
const captionLimit = 1024;

/** The /account text (HTML): name, username, profile heading when set, balance, registration date. */
export function renderAccount(t: TranslateFunction, locale: Locale, account: Account): string {
  const fullName = account.name.full_name.trim() || `${account.name.firstname} ${account.name.lastname}`.trim() || account.username;
  const lines = [
    t('marketplace-account-title'),
    '',
    t('marketplace-account-name', { name: shorten(fullName, 100) }),
    t('marketplace-account-username', { username: shorten(account.username, 100) }),
  ];
  const heading = account.profile.heading.trim();
  if (heading !== '') lines.push(t('marketplace-account-heading', { heading: shorten(heading, 200) }));
  lines.push(
    t('marketplace-account-balance', { balance: formatMoney(account.balance, account.currency, locale) }),
    t('marketplace-account-registered', { date: formatWibDateIn(t, account.registered_at) }),
  );
  return lines.join('\n');
}

/** A page of /items (HTML) with its buttons; a page past the end shows the last one. */
export function renderItemsPage(
  t: TranslateFunction,
  locale: Locale,
  items: readonly Item[],
  requestedPage: number,
): { text: string; keyboard: InlineKeyboard | undefined } {
  if (items.length === 0) return { text: t('marketplace-items-empty'), keyboard: undefined };
  const pages = Math.ceil(items.length / marketplaceItemsPerPage);
  const page = Math.min(requestedPage, pages - 1);
  const first = page * marketplaceItemsPerPage;
  const shown = items.slice(first, first + marketplaceItemsPerPage);
  const lines = shown.map((item, index) =>
    t('marketplace-items-line', {
      n: first + index + 1,
      name: shorten(item.name, 100),
      category: categoryOf(item),
      version: shorten(item.version, 30),
      regular: formatMoney(item.price.regular, item.currency, locale),
      extended: formatMoney(item.price.extended, item.currency, locale),
    }),
  );
  const title = t('marketplace-items-title', { count: items.length, page: page + 1, pages });
  const text = [title, '', lines.join('\n\n'), '', t('marketplace-items-footer')].join('\n');
  return { text, keyboard: createItemsKeyboard(t, shown, { page, pages, firstNumber: first + 1 }) };
}

/** The details shortened until they fit a photo caption; undefined when even the shortest does not. */
export function captionFor(t: TranslateFunction, locale: Locale, item: Item): string | undefined {
  const variants = [
    { description: 300, tags: 20 },
    { description: 150, tags: 10 },
    { description: 0, tags: 0 },
  ];
  for (const variant of variants) {
    const text = renderItemDetails(t, locale, item, variant);
    if (visibleLength(text) <= captionLimit) return text;
  }
  return undefined;
}

/** An item's details (HTML): name, category, version, prices, description, tags and links (the image's when not shown). */
export function renderItemDetails(
  t: TranslateFunction,
  locale: Locale,
  item: Item,
  limits: { description: number; tags: number; image?: string | undefined },
): string {
  const lines = [
    t('marketplace-item-title', { name: shorten(item.name, 200) }),
    t('marketplace-item-meta', { category: categoryOf(item), version: shorten(item.version, 30) }),
    t('marketplace-item-price', {
      regular: formatMoney(item.price.regular, item.currency, locale),
      extended: formatMoney(item.price.extended, item.currency, locale),
    }),
  ];
  const description = plainText(item.description);
  if (limits.description > 0 && description !== '') lines.push('', escapeHtml(shorten(description, limits.description)));
  const tags = item.tags.map((tag) => tag.trim()).filter((tag) => tag !== '');
  if (limits.tags > 0 && tags.length > 0) {
    const shown = tags.slice(0, limits.tags).map((tag) => shorten(tag, 40));
    lines.push('', t('marketplace-item-tags', { tags: shown.join(', ') + (tags.length > limits.tags ? ', …' : '') }));
  }
  const links: string[] = [];
  if (item.demo_link.trim() !== '') links.push(t('marketplace-item-demo', { url: item.demo_link.trim() }));
  if (item.media.preview_video) links.push(t('marketplace-item-video', { url: item.media.preview_video }));
  if (item.media.preview_audio) links.push(t('marketplace-item-audio', { url: item.media.preview_audio }));
  if (limits.image) links.push(t('marketplace-item-image', { url: limits.image }));
  if (links.length > 0) lines.push('', ...links);
  return lines.join('\n');
}

/** The answer to a /verify (HTML). The code itself is not repeated: the answer replies to it. */
export function renderVerifyOutcome(
  t: TranslateFunction,
  outcome: VerifyOutcome,
  options: { now: number; account: string | undefined; cached: boolean; locale: Locale },
): string {
  const lines: string[] = [];
  if (!outcome.valid) {
    lines.push(t('marketplace-verify-invalid', { message: shorten(outcome.message, 300) }));
  } else {
    const purchase = outcome.purchase;
    const name = escapeHtml(shorten(purchase.item.name, 200));
    const item = isButtonUrl(purchase.item.url) ? `<a href="${escapeAttribute(purchase.item.url)}">${name}</a>` : `<b>${name}</b>`;
    lines.push(
      t('marketplace-verify-valid'),
      '',
      t('marketplace-verify-item', { item: raw(item) }),
      t('marketplace-verify-license', { license: shorten(purchase.license_type, 50) }),
      t('marketplace-verify-price', { price: formatMoney(purchase.price, purchase.currency, options.locale) }),
      t('marketplace-verify-date', { date: formatWibIn(t, purchase.date) }),
    );
    const support = supportStateOf(purchase, options.now);
    if (support === 'active') lines.push(t('marketplace-verify-support-active', { until: formatWibIn(t, purchase.supported_until!) }));
    else if (support === 'expired')
      lines.push(t('marketplace-verify-support-expired', { since: formatWibIn(t, purchase.supported_until!) }));
    else lines.push(t('marketplace-verify-support-none'));
    lines.push(t(purchase.downloaded ? 'marketplace-verify-downloaded-yes' : 'marketplace-verify-downloaded-no'));
  }
  if (options.account) lines.push('', t('marketplace-verify-account', { account: options.account }));
  if (options.cached) lines.push(t('marketplace-verify-cached'));
  return lines.join('\n');
}

/** `Category › Sub-category`, or just the category. */
function categoryOf(item: Item): string {
  const parts = [item.category, item.sub_category].map((part) => part.trim()).filter((part) => part !== '');
  return shorten(parts.join(' › ') || '-', 80);
}

/** A description as plain text: markup some sellers paste is dropped, whitespace collapsed. */
function plainText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How long Telegram counts an HTML text: without tags, each entity one character. */
function visibleLength(html: string): number {
  return html.replace(/<[^>]*>/g, '').replace(/&(?:lt|gt|amp|quot);/g, '_').length;
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, '&quot;');
}
