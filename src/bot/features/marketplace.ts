import { createHash } from 'node:crypto';
import { Composer, GrammyError, type InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { BotContext, BotDeps } from '../context.ts';
import { commandNames } from '../commands.ts';
import { replyProviderError, requireClient, requirePrivateChat } from '../guards.ts';
import { describeProviderError } from '../provider-errors.ts';
import { escapeHtml, formatMoney, formatWib } from '../format.ts';
import { marketplaceItemData, marketplaceItemsPageData } from '../callback-data/marketplace.ts';
import { createItemDetailsKeyboard, createItemsKeyboard, isButtonUrl, shorten } from '../keyboards/marketplace.ts';
import { supportStateOf, type Account, type Item, type Purchase } from '../../providers/marketplace/schemas.ts';
import { isProviderError } from '../../providers/provider-error.ts';
import { withoutFormatChars } from '../../services/targets.ts';
import type { MarketplaceClient } from '../../providers/marketplace/client.ts';

/** Items per /items page. */
export const marketplaceItemsPerPage = 5;

/** How long a purchase-code answer is reused for the same account and code (ms). */
export const verifyCacheMs = 60_000;

/** At most this many /verify checks per chat within the window; more get "wait". */
export const verifyRateLimit = { checks: 5, windowMs: 60_000 } as const;

/** Real purchase codes are UUIDs (36 characters); anything much longer is not one. */
const maxCodeLength = 100;
/** Telegram's caption limit (characters after entity parsing). */
const captionLimit = 1024;
/** Cap on remembered purchase answers per bot, whatever their age. */
const maxCacheEntries = 5000;

const noop = (): undefined => undefined;

/**
 * The marketplace seller's corner of the bot (document 2):
 * - `/account` (`/akun`): the connected seller's name, username, profile heading, balance and
 *   registration date. Private chat only.
 * - `/items` (`/produk`): the seller's items, five per page with prices, category and version;
 *   paging edits the same message; tapping an item sends its details with its image (as a photo,
 *   or as a link when Telegram cannot fetch it) and demo/preview links. Private chat only.
 * - `/verify CODE` (`/validasi`): checks a buyer's purchase code and says which item, licence,
 *   price, purchase date, support state and whether it was downloaded. Also in groups, where it
 *   answers with the marketplace account of whoever linked the group (/linkgroup), else the
 *   sender's own. The same code for the same account is answered from memory for a minute, each
 *   chat gets at most five checks a minute, and a purchase code never reaches the log.
 */
export const marketplaceFeature = new Composer<BotContext>();

// ---------------------------------------------------------------------------------------------
// /account
// ---------------------------------------------------------------------------------------------

marketplaceFeature.command(commandNames('account'), async (ctx) => {
  if (!(await requirePrivateChat(ctx))) return;
  const client = await requireClient(ctx, ctx.deps, 'marketplace');
  if (!client) return;
  await ctx.replyWithChatAction('typing').catch(noop);
  let account: Account;
  try {
    account = await client.accountDetails();
  } catch (error) {
    await replyProviderError(ctx, ctx.deps, error);
    return;
  }
  await ctx.reply(renderAccount(ctx.t, account), { parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
});

/** The /account text (HTML): name, username, profile heading when set, balance, registration date. */
function renderAccount(t: TranslateFunction, account: Account): string {
  const fullName = account.name.full_name.trim() || `${account.name.firstname} ${account.name.lastname}`.trim() || account.username;
  const lines = [
    t('marketplace-account-title'),
    '',
    t('marketplace-account-name', { name: escapeHtml(shorten(fullName, 100)) }),
    t('marketplace-account-username', { username: escapeHtml(shorten(account.username, 100)) }),
  ];
  const heading = account.profile.heading.trim();
  if (heading !== '') lines.push(t('marketplace-account-heading', { heading: escapeHtml(shorten(heading, 200)) }));
  lines.push(
    t('marketplace-account-balance', { balance: escapeHtml(formatMoney(account.balance, account.currency)) }),
    t('marketplace-account-registered', { date: formatWibDate(account.registered_at) }),
  );
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// /items and item details
// ---------------------------------------------------------------------------------------------

marketplaceFeature.command(commandNames('items'), async (ctx) => {
  if (!(await requirePrivateChat(ctx))) return;
  const client = await requireClient(ctx, ctx.deps, 'marketplace');
  if (!client) return;
  await ctx.replyWithChatAction('typing').catch(noop);
  let items: Item[];
  try {
    items = await client.items();
  } catch (error) {
    await replyProviderError(ctx, ctx.deps, error);
    return;
  }
  const { text, keyboard } = renderItemsPage(ctx.t, items, 0);
  await ctx.reply(text, { parse_mode: 'HTML', reply_markup: keyboard, link_preview_options: { is_disabled: true } });
});

marketplaceFeature.callbackQuery(marketplaceItemsPageData.filter(), async (ctx) => {
  const page = parseNumber(() => marketplaceItemsPageData.unpack(ctx.callbackQuery.data).page);
  if (page === undefined || page < 0) {
    await ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback') });
    return;
  }
  const client = await callbackClient(ctx);
  if (!client) return;
  let items: Item[];
  try {
    items = await client.items();
  } catch (error) {
    await ctx.answerCallbackQuery().catch(noop);
    await replyProviderError(ctx, ctx.deps, error);
    return;
  }
  // The provider may have been slow: an answer to an expired query is not worth an error.
  await ctx.answerCallbackQuery().catch(noop);
  const { text, keyboard } = renderItemsPage(ctx.t, items, page);
  try {
    await ctx.editMessageText(text, { parse_mode: 'HTML', reply_markup: keyboard, link_preview_options: { is_disabled: true } });
  } catch (error) {
    if (error instanceof GrammyError && error.description.includes('message is not modified')) return;
    throw error;
  }
});

marketplaceFeature.callbackQuery(marketplaceItemData.filter(), async (ctx) => {
  const id = parseNumber(() => marketplaceItemData.unpack(ctx.callbackQuery.data).id);
  if (id === undefined || id <= 0) {
    await ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback') });
    return;
  }
  const client = await callbackClient(ctx);
  if (!client) return;
  let item: Item;
  try {
    item = await client.item(id);
  } catch (error) {
    await ctx.answerCallbackQuery().catch(noop);
    await replyProviderError(ctx, ctx.deps, error);
    return;
  }
  await ctx.answerCallbackQuery().catch(noop);
  await sendItemDetails(ctx, item);
});

/** A client for the tapper's marketplace account, or undefined after telling them to connect (as an alert). */
async function callbackClient(ctx: BotContext): Promise<MarketplaceClient | undefined> {
  const client = ctx.from ? ctx.deps.services.credentials.client(ctx.from.id, 'marketplace') : undefined;
  if (!client) {
    await ctx.answerCallbackQuery({ text: ctx.t('error-not-connected', { service: ctx.t('service-marketplace') }), show_alert: true });
  }
  return client;
}

/** A page of /items (HTML) with its buttons; a page past the end shows the last one. */
function renderItemsPage(t: TranslateFunction, items: readonly Item[], requestedPage: number): { text: string; keyboard: InlineKeyboard | undefined } {
  if (items.length === 0) return { text: t('marketplace-items-empty'), keyboard: undefined };
  const pages = Math.ceil(items.length / marketplaceItemsPerPage);
  const page = Math.min(requestedPage, pages - 1);
  const first = page * marketplaceItemsPerPage;
  const shown = items.slice(first, first + marketplaceItemsPerPage);
  const lines = shown.map((item, index) =>
    t('marketplace-items-line', {
      n: first + index + 1,
      name: escapeHtml(shorten(item.name, 100)),
      category: escapeHtml(categoryOf(item)),
      version: escapeHtml(shorten(item.version, 30)),
      regular: escapeHtml(formatMoney(item.price.regular, item.currency)),
      extended: escapeHtml(formatMoney(item.price.extended, item.currency)),
    }),
  );
  const title = t('marketplace-items-title', { count: items.length, page: page + 1, pages });
  const text = [title, '', lines.join('\n\n'), '', t('marketplace-items-footer')].join('\n');
  return { text, keyboard: createItemsKeyboard(t, shown, { page, pages, firstNumber: first + 1 }) };
}

/**
 * Sends an item's details: as a photo (preview image, else thumbnail) with the details as its
 * caption, or as text with the image's link when there is no usable image, the details do not
 * fit a caption, or Telegram refuses the photo (it cannot fetch the URL, say).
 */
async function sendItemDetails(ctx: BotContext, item: Item): Promise<void> {
  const keyboard = createItemDetailsKeyboard(ctx.t, item);
  const imageUrl = [item.media.preview_image, item.media.thumbnail].find((url) => isButtonUrl(url));
  if (imageUrl !== undefined) {
    const caption = captionFor(ctx.t, item);
    if (caption !== undefined) {
      try {
        await ctx.replyWithPhoto(imageUrl, { caption, parse_mode: 'HTML', reply_markup: keyboard });
        return;
      } catch (error) {
        if (!(error instanceof GrammyError)) throw error;
        ctx.deps.logger.warn('marketplace item image refused by Telegram; sending the details as text', {
          userId: ctx.from?.id,
          itemId: item.id,
          description: error.description,
        });
      }
    }
  }
  const imageLinks = [item.media.preview_image, item.media.thumbnail].filter((url): url is string => url !== undefined && url.trim() !== '');
  const text = renderItemDetails(ctx.t, item, { description: 600, tags: 30, image: imageLinks[0] });
  await ctx.reply(text, { parse_mode: 'HTML', reply_markup: keyboard });
}

/** The details shortened until they fit a photo caption; undefined when even the shortest does not. */
function captionFor(t: TranslateFunction, item: Item): string | undefined {
  const variants = [
    { description: 300, tags: 20 },
    { description: 150, tags: 10 },
    { description: 0, tags: 0 },
  ];
  for (const variant of variants) {
    const text = renderItemDetails(t, item, variant);
    if (visibleLength(text) <= captionLimit) return text;
  }
  return undefined;
}

/**
 * An item's details (HTML): name, category and version, prices, the description (shortened and
 * escaped), tags, and the links (demo, video/audio preview, and the image when it is not shown).
 */
function renderItemDetails(t: TranslateFunction, item: Item, limits: { description: number; tags: number; image?: string | undefined }): string {
  const lines = [
    t('marketplace-item-title', { name: escapeHtml(shorten(item.name, 200)) }),
    t('marketplace-item-meta', { category: escapeHtml(categoryOf(item)), version: escapeHtml(shorten(item.version, 30)) }),
    t('marketplace-item-price', {
      regular: escapeHtml(formatMoney(item.price.regular, item.currency)),
      extended: escapeHtml(formatMoney(item.price.extended, item.currency)),
    }),
  ];
  const description = plainText(item.description);
  if (limits.description > 0 && description !== '') lines.push('', escapeHtml(shorten(description, limits.description)));
  const tags = item.tags.map((tag) => tag.trim()).filter((tag) => tag !== '');
  if (limits.tags > 0 && tags.length > 0) {
    const shown = tags.slice(0, limits.tags).map((tag) => escapeHtml(shorten(tag, 40)));
    lines.push('', t('marketplace-item-tags', { tags: shown.join(', ') + (tags.length > limits.tags ? ', …' : '') }));
  }
  const links: string[] = [];
  if (item.demo_link.trim() !== '') links.push(t('marketplace-item-demo', { url: escapeHtml(item.demo_link.trim()) }));
  if (item.media.preview_video) links.push(t('marketplace-item-video', { url: escapeHtml(item.media.preview_video) }));
  if (item.media.preview_audio) links.push(t('marketplace-item-audio', { url: escapeHtml(item.media.preview_audio) }));
  if (limits.image) links.push(t('marketplace-item-image', { url: escapeHtml(limits.image) }));
  if (links.length > 0) lines.push('', ...links);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// /verify
// ---------------------------------------------------------------------------------------------

/** What a purchase-code check found: the purchase, or the marketplace's refusal. */
type VerifyOutcome = { valid: true; purchase: Purchase } | { valid: false; message: string };

/** Per-bot memory of /verify: recent answers and recent checks per chat. */
interface VerifyState {
  /** By hash of (api key, code): the outcome and when it was fetched (ms). */
  answers: Map<string, { at: number; outcome: VerifyOutcome }>;
  /** By chat id: times (ms) of the checks within the rate-limit window, oldest first. */
  checks: Map<number, number[]>;
  /** By group chat id: when the "too many checks" notice was last sent (said once per window). */
  warned: Map<number, number>;
}

/** Keyed by the bot's dependencies, so two bots in one process (tests) never share answers. */
const verifyStates = new WeakMap<BotDeps, VerifyState>();

function verifyStateOf(deps: BotDeps): VerifyState {
  let state = verifyStates.get(deps);
  if (!state) {
    state = { answers: new Map(), checks: new Map(), warned: new Map() };
    verifyStates.set(deps, state);
  }
  return state;
}

/** Whose marketplace account answers a /verify, and whether that is the sender's own. */
interface Seller {
  client: MarketplaceClient;
  userId: number;
  own: boolean;
}

marketplaceFeature.command(commandNames('verify'), async (ctx) => {
  const { deps } = ctx;
  const replyTo = { reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true } };
  const code = withoutFormatChars(ctx.match).trim().split(/\s+/)[0] ?? '';
  if (code === '' || code.length > maxCodeLength) {
    await ctx.reply(ctx.t('marketplace-verify-usage'), { parse_mode: 'HTML', ...replyTo });
    return;
  }
  const seller = await resolveSeller(ctx);
  if (!seller) return;

  const state = verifyStateOf(deps);
  const now = deps.now().getTime();
  const waitMs = takeCheck(state, ctx.chat.id, now);
  if (waitMs > 0) {
    const isGroup = ctx.chat.type !== 'private';
    // In a group the notice is said once per window, so a burst of checks is not met by a burst of notices.
    if (isGroup && (state.warned.get(ctx.chat.id) ?? -Infinity) > now - verifyRateLimit.windowMs) return;
    if (isGroup) state.warned.set(ctx.chat.id, now);
    await ctx.reply(ctx.t('marketplace-verify-too-many', { seconds: Math.max(1, Math.ceil(waitMs / 1000)) }), replyTo);
    return;
  }

  const key = answerKey(seller.userId, deps.store.credentials.info(seller.userId, 'marketplace')?.connectedAt ?? '', code);
  const remembered = recentAnswer(state, key, now);
  let outcome: VerifyOutcome;
  if (remembered) {
    outcome = remembered;
  } else {
    await ctx.replyWithChatAction('typing').catch(noop);
    try {
      outcome = { valid: true, purchase: await seller.client.validatePurchase(code) };
    } catch (error) {
      if (!isProviderError(error)) throw error;
      // Only the kind: the marketplace's message could quote the code, which must never be logged.
      deps.logger.warn('marketplace purchase check failed', { chatId: ctx.chat.id, userId: ctx.from?.id, kind: error.kind, httpStatus: error.httpStatus });
      if (error.kind === 'not_found') {
        outcome = { valid: false, message: error.providerMessage ?? '-' };
      } else {
        const text =
          error.kind === 'credentials' && !seller.own
            ? ctx.t('marketplace-verify-owner-credentials')
            : (describeProviderError(ctx.t, error, deps.settings.publicIp) ?? ctx.t('error-generic'));
        await ctx.reply(text, replyTo);
        return;
      }
    }
    remember(state, key, outcome, now);
  }
  const account = deps.store.credentials.info(seller.userId, 'marketplace')?.label;
  const text = renderVerifyOutcome(ctx.t, outcome, { now, account, cached: remembered !== undefined });
  await ctx.reply(text, { parse_mode: 'HTML', link_preview_options: { is_disabled: true }, ...replyTo });
});

/**
 * The marketplace account that answers a /verify here, or undefined after saying why there is
 * none. Private chat: the sender's. Group: the account of whoever linked the group, else the
 * sender's when they have one.
 */
async function resolveSeller(ctx: BotContext & { chat: NonNullable<BotContext['chat']> }): Promise<Seller | undefined> {
  const { deps } = ctx;
  const senderId = ctx.from?.id;
  if (ctx.chat.type === 'private') {
    const client = await requireClient(ctx, deps, 'marketplace');
    return client && senderId !== undefined ? { client, userId: senderId, own: true } : undefined;
  }
  const link = deps.store.groups.get(ctx.chat.id);
  if (link) {
    const client = deps.services.credentials.client(link.ownerId, 'marketplace');
    if (!client) {
      await ctx.reply(ctx.t('marketplace-verify-owner-not-connected'));
      return undefined;
    }
    return { client, userId: link.ownerId, own: link.ownerId === senderId };
  }
  const client = senderId === undefined ? undefined : deps.services.credentials.client(senderId, 'marketplace');
  if (!client || senderId === undefined) {
    await ctx.reply(ctx.t('marketplace-verify-group-not-connected'));
    return undefined;
  }
  return { client, userId: senderId, own: true };
}

/**
 * Counts a check in `chatId` at `now`. Returns 0 when it is allowed, else how long (ms) until the
 * oldest check in the window expires.
 */
function takeCheck(state: VerifyState, chatId: number, now: number): number {
  const since = now - verifyRateLimit.windowMs;
  const recent = (state.checks.get(chatId) ?? []).filter((at) => at > since);
  if (recent.length >= verifyRateLimit.checks) {
    state.checks.set(chatId, recent);
    return recent[0]! + verifyRateLimit.windowMs - now;
  }
  recent.push(now);
  state.checks.set(chatId, recent);
  // Forget quiet chats now and then so the map does not grow with every chat ever seen.
  if (state.checks.size > 1000) {
    for (const [id, times] of state.checks) if (times.every((at) => at <= since)) state.checks.delete(id);
    for (const [id, at] of state.warned) if (at <= since) state.warned.delete(id);
  }
  return 0;
}

/** The seller's account (as connected: a reconnect starts afresh) and the code as one opaque key; the code is not kept in plain text. */
function answerKey(sellerId: number, connectedAt: string, code: string): string {
  return createHash('sha256').update(`${sellerId}\u0000${connectedAt}\u0000`).update(code).digest('base64url');
}

function recentAnswer(state: VerifyState, key: string, now: number): VerifyOutcome | undefined {
  const entry = state.answers.get(key);
  if (!entry) return undefined;
  if (now - entry.at < verifyCacheMs && now >= entry.at) return entry.outcome;
  state.answers.delete(key);
  return undefined;
}

function remember(state: VerifyState, key: string, outcome: VerifyOutcome, now: number): void {
  for (const [other, entry] of state.answers) if (now - entry.at >= verifyCacheMs) state.answers.delete(other);
  state.answers.delete(key);
  state.answers.set(key, { at: now, outcome });
  // Map order is insertion order: the oldest go first when a flood of distinct codes arrives.
  while (state.answers.size > maxCacheEntries) {
    const oldest = state.answers.keys().next().value;
    if (oldest === undefined) break;
    state.answers.delete(oldest);
  }
}

/** The answer to a /verify (HTML). The code itself is not repeated: the answer replies to it. */
function renderVerifyOutcome(t: TranslateFunction, outcome: VerifyOutcome, options: { now: number; account: string | undefined; cached: boolean }): string {
  const lines: string[] = [];
  if (!outcome.valid) {
    lines.push(t('marketplace-verify-invalid', { message: escapeHtml(shorten(outcome.message, 300)) }));
  } else {
    const purchase = outcome.purchase;
    const name = escapeHtml(shorten(purchase.item.name, 200));
    const item = isButtonUrl(purchase.item.url) ? `<a href="${escapeAttribute(purchase.item.url)}">${name}</a>` : `<b>${name}</b>`;
    lines.push(
      t('marketplace-verify-valid'),
      '',
      t('marketplace-verify-item', { item }),
      t('marketplace-verify-license', { license: escapeHtml(shorten(purchase.license_type, 50)) }),
      t('marketplace-verify-price', { price: escapeHtml(formatMoney(purchase.price, purchase.currency)) }),
      t('marketplace-verify-date', { date: formatWib(purchase.date) }),
    );
    const support = supportStateOf(purchase, options.now);
    if (support === 'active') lines.push(t('marketplace-verify-support-active', { until: formatWib(purchase.supported_until!) }));
    else if (support === 'expired') lines.push(t('marketplace-verify-support-expired', { since: formatWib(purchase.supported_until!) }));
    else lines.push(t('marketplace-verify-support-none'));
    lines.push(t(purchase.downloaded ? 'marketplace-verify-downloaded-yes' : 'marketplace-verify-downloaded-no'));
  }
  if (options.account) lines.push('', t('marketplace-verify-account', { account: escapeHtml(options.account) }));
  if (options.cached) lines.push(t('marketplace-verify-cached'));
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

const wibDate = new Intl.DateTimeFormat('id-ID', { timeZone: 'Asia/Jakarta', day: '2-digit', month: 'short', year: 'numeric' });

/** A date as it is in Western Indonesian Time, without the hour: `11 Apr 2019`. */
function formatWibDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? escapeHtml(value) : wibDate.format(date);
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

/** A number read from callback data, or undefined when it is not a safe integer. */
function parseNumber(read: () => number): number | undefined {
  try {
    const value = read();
    return Number.isSafeInteger(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
