/**
 * The /beli picker: what to buy, by taps. Category → brand → product → target, each step one
 * message edited in place, with ⬅️ Back and ❌ Cancel; the target step offers the user's last
 * five destinations of that brand. A product code typed at the category, brand or product step
 * goes straight to the target step, `CODE TARGET` / `CODE.TARGET` lines straight to the summary.
 *
 * Built on `waitForAnswer` with plain inline keyboards rather than `conversation.menu()`: a menu
 * answers an outdated button silently (no "no longer valid" text) and logs a stack trace for
 * each, its generated ids (`//0`…) are the same in every run so an earlier flow's button with the
 * same layout counts as current, and the steps need typed text and the shared leave rule of
 * `ask.ts` as much as buttons. Here every button carries the picker's id (from the update that
 * started it) and the number of the rendering it belongs to: anything else is outdated.
 */
import { createHash } from 'node:crypto';
import type { BotConversation, BotDeps, ConversationContext, PendingQuestion } from '../context.ts';
import type { Selection } from '../renderers/purchase.ts';
import { capitalise, targetProblemText } from '../renderers/purchase.ts';
import { renderPickerStep, type PickerData, type PickerView } from '../renderers/buy-picker.ts';
import { isBuyPickerData, readBuyPickerData, type BuyPickerAction } from '../callback-data/buy-picker.ts';
import { readBuyData } from '../callback-data/buy.ts';
import { waitForAnswer } from './ask.ts';
import { editOrReply, quietly } from '../edits.ts';
import type { ProductJson, RequestedLine } from './buy-questions.ts';
import { brandOf, categoryOf, groupByBrand, groupByCategory } from '../../services/catalogue.ts';
import { isProductAvailable, providerFailureOf, type Product, type ProviderErrorJson } from '../../services/providers.ts';
import { maxQuickBuyLines, normaliseTarget, parseBuyCommand, targetKindOf } from '../../services/targets.ts';
import { raw } from '../../text/html.ts';
import { productStatusWord } from '../../text/product-status.ts';

export interface BuyPickerEnv {
  conversation: BotConversation;
  /** The context of the update that started the conversation. */
  ctx: ConversationContext;
  deps: BotDeps;
  userId: number;
  chatId: number;
  /** Tells the user the price list could not be read; the flow then ends. */
  lookupFailed: (error: ProviderErrorJson | undefined) => Promise<void>;
  /** Resolves typed CODE.TARGET lines against the price list (the quick-buy path). */
  resolveLines: (lines: RequestedLine[], skipped: Array<{ line: number; text: string }>) => Promise<Selection | undefined>;
}

type Loaded<T> = { ok: true; value: T } | { ok: false; error?: ProviderErrorJson };
type Located = { product: ProductJson; category: string; brand: string } | null;
type Received =
  | { kind: 'text'; ctx: ConversationContext; text: string }
  | { kind: 'button'; ctx: ConversationContext; action: BuyPickerAction; n: number };

const toJson = (p: Product): ProductJson => ({ code: p.code, product_name: p.product_name, price: p.price, status: p.status });

/** The picker's id: derived from the update that started the conversation, so every replay agrees. */
function pickerIdOf(ctx: ConversationContext): string {
  return createHash('sha256').update(`kiosbot-picker:${ctx.chat?.id}:${ctx.update.update_id}`).digest('base64url').slice(0, 8);
}

/**
 * Runs the picker. Waits for taps on its buttons and for typed codes or targets (any command or
 * another feature's button leaves the conversation, as everywhere). `initialCode` (from
 * `/beli CODE` or a product button elsewhere) starts at that product's target step. Persists
 * nothing itself: its price-list and history reads are `external` steps of the conversation.
 * Resolves with what to buy (one product and target, or typed quick-buy lines), or undefined
 * when the user cancelled or the price list could not be read (the user was told).
 */
export async function pickPurchase(env: BuyPickerEnv, initialCode?: string): Promise<Selection | undefined> {
  const { conversation, ctx, deps, userId, chatId } = env;
  const t = ctx.t;
  const flow = pickerIdOf(ctx);

  /** Reads the price list (cached by the catalogue service) for `task`, as plain JSON. */
  const read = <T>(task: (list: Product[]) => T | Promise<T>) =>
    conversation.external(async (): Promise<Loaded<T>> => {
      if (!(await deps.services.credentials.has(userId, 'reseller'))) return { ok: false };
      try {
        return { ok: true, value: await task(await deps.services.catalogue.priceList(userId)) };
      } catch (error) {
        const failure = providerFailureOf(error);
        if (!failure) throw error;
        deps.logger.warn('price list unavailable for the buy picker', { userId, error });
        return { ok: false, error: failure };
      }
    });

  const productsOf = (list: Product[], category: string) => groupByCategory(list).find((c) => c.category === category)?.products ?? [];

  /** What a step shows. */
  const load = (view: PickerView): Promise<Loaded<PickerData>> => {
    if (view.step === 'target') {
      return conversation.external(async (): Promise<Loaded<PickerData>> => ({
        ok: true,
        value: { step: 'target', recent: await deps.services.recentTargets.forBrand(userId, view.brand) },
      }));
    }
    return read((list): PickerData => {
      if (view.step === 'category') {
        return { step: 'category', categories: groupByCategory(list).map((c) => ({ category: c.category, count: c.products.length })) };
      }
      const brands = groupByBrand(productsOf(list, view.category));
      if (view.step === 'brand') return { step: 'brand', brands: brands.map((b) => ({ brand: b.brand, count: b.products.length })) };
      return { step: 'product', products: (brands.find((b) => b.brand === view.brand)?.products ?? []).map(toJson) };
    });
  };

  /** A product by code, with the category and brand the picker files it under. */
  const locate = (code: string) =>
    read((list): Located => {
      const product = list.find((p) => p.code.toUpperCase() === code.toUpperCase());
      if (!product) return null;
      const category = categoryOf(product);
      const brand = groupByBrand(productsOf(list, category)).find((b) => b.products.includes(product))?.brand ?? brandOf(product);
      return { product: toJson(product), category, brand };
    });

  // --- Where to start ------------------------------------------------------------------------
  const stack: PickerView[] = [{ step: 'category', page: 0 }];
  if (initialCode !== undefined) {
    const found = await locate(initialCode);
    if (!found.ok) {
      await env.lookupFailed(found.error);
      return undefined;
    }
    const located = found.value;
    if (!located) await ctx.reply(t('buy-unknown-code', { code: initialCode }));
    else if (!isProductAvailable(located.product)) {
      const { product } = located;
      await ctx.reply(
        t('buy-unavailable-code', { product: product.product_name, code: product.code, status: productStatusWord(t, product.status) }),
      );
    } else {
      const { product, category, brand } = located;
      stack.push({ step: 'brand', category, page: 0 }, { step: 'product', category, brand, page: 0 }, { step: 'target', product, brand });
    }
  }

  let rendering = 0;
  let messageId: number | undefined;
  /** The next step is shown by editing the picker message (after a tap on it) rather than as a new one. */
  let edit = false;
  /** Removes the picker message's buttons (the flow moved on to a new message, or ended). */
  const closeButtons = async () => {
    if (messageId !== undefined) await quietly(ctx.api.editMessageReplyMarkup(chatId, messageId));
  };

  const receive = (current: number, repeat: PendingQuestion): Promise<Received> =>
    waitForAnswer(conversation, {
      repeat,
      // Summaries' buttons count as this flow's: an old one is answered as such, not passed on.
      ownsButton: (data) => isBuyPickerData(data) || readBuyData(data) !== undefined,
      accept: (next): Received | undefined => {
        const button = readBuyPickerData(next.callbackQuery?.data);
        if (button)
          return button.flow === flow && button.view === current
            ? { kind: 'button', ctx: next, action: button.action, n: button.n }
            : undefined;
        const text = next.message?.text;
        return text !== undefined ? { kind: 'text', ctx: next, text } : undefined;
      },
      otherwise: async (next) => {
        if (!next.callbackQuery) {
          await next.reply(t('buy-picker-hint'));
          return;
        }
        await quietly(next.answerCallbackQuery({ text: t('buy-picker-outdated') }));
        // An older message's buttons should not invite another tap; the current message keeps its own.
        const tapped = next.callbackQuery.message?.message_id;
        if (tapped !== undefined && tapped !== messageId) await quietly(next.editMessageReplyMarkup());
      },
      leave: closeButtons,
    });

  for (;;) {
    const view = stack.at(-1) ?? { step: 'category', page: 0 };
    const loaded = await load(view);
    if (!loaded.ok) {
      await closeButtons();
      await env.lookupFailed(loaded.error);
      return undefined;
    }
    const data = loaded.value;
    const stamp = { flow, view: ++rendering };
    const { text, keyboard } = renderPickerStep(t, view, data, stamp, stack.length > 1);
    if (edit && messageId !== undefined) messageId = await editOrReply(ctx, messageId, text, { reply_markup: keyboard });
    else {
      await closeButtons();
      messageId = (await ctx.reply(text, { reply_markup: keyboard })).message_id;
    }

    // Answers until one moves the picker to another step.
    let next: PickerView | 'back' | undefined;
    while (next === undefined) {
      const got = await receive(stamp.view, { text, reply_markup: keyboard });
      if (got.kind === 'button') {
        const { action, n } = got;
        // A tap on the copy an information command left below (see ask.ts) moves the picker there.
        const tapped = got.ctx.callbackQuery?.message?.message_id;
        if (tapped !== undefined && tapped !== messageId) {
          await closeButtons();
          messageId = tapped;
        }
        if (action === 'cancel') {
          await quietly(got.ctx.answerCallbackQuery());
          await closeButtons();
          await ctx.reply(t('buy-cancelled'));
          return undefined;
        }
        if (action === 'back') next = 'back';
        else if (action === 'page' && view.step !== 'target') next = { ...view, page: n };
        else if (view.step === 'category' && data.step === 'category') {
          const category = data.categories[n]?.category;
          if (category !== undefined) next = { step: 'brand', category, page: 0 };
        } else if (view.step === 'brand' && data.step === 'brand') {
          const brand = data.brands[n]?.brand;
          if (brand !== undefined) next = { step: 'product', category: view.category, brand, page: 0 };
        } else if (view.step === 'product' && data.step === 'product') {
          const product = data.products[n];
          if (product && !isProductAvailable(product)) {
            const status = t('buy-picker-unavailable', {
              name: raw(product.product_name),
              status: raw(productStatusWord(t, product.status)),
            });
            await quietly(got.ctx.answerCallbackQuery({ text: status.slice(0, 200), show_alert: true }));
            continue;
          }
          if (product) next = { step: 'target', product, brand: view.brand };
        } else if (view.step === 'target' && data.step === 'target') {
          const target = data.recent[n];
          if (target !== undefined) {
            const check = normaliseTarget(target, targetKindOf(view.product));
            await quietly(got.ctx.answerCallbackQuery());
            if (check.ok) return chosen(view.product, check.target);
            await ctx.reply(t('buy-target-retry', { problem: raw(capitalise(targetProblemText(t, check.problem, target))) }));
            continue;
          }
        }
        await quietly(got.ctx.answerCallbackQuery());
        edit = true;
        continue;
      }

      // Typed text: the target at the target step, otherwise a code or CODE.TARGET line(s).
      edit = false;
      if (view.step === 'target') {
        const check = normaliseTarget(got.text, targetKindOf(view.product));
        if (check.ok) return chosen(view.product, check.target);
        await ctx.reply(t('buy-target-retry', { problem: raw(capitalise(targetProblemText(t, check.problem, got.text.trim()))) }));
        continue;
      }
      const parsed = parseBuyCommand(got.text);
      const [first] = parsed.lines;
      if (parsed.count > maxQuickBuyLines) await ctx.reply(t('buy-too-many-lines', { max: maxQuickBuyLines, count: parsed.count }));
      else if (!first) await ctx.reply(t('buy-code-format'));
      else if (parsed.lines.length > 1 || first.target !== undefined) {
        await closeButtons();
        return env.resolveLines(parsed.lines, parsed.problems);
      } else {
        const found = await locate(first.code);
        if (!found.ok) {
          await closeButtons();
          await env.lookupFailed(found.error);
          return undefined;
        }
        const located = found.value;
        if (!located) await ctx.reply(t('buy-unknown-code', { code: first.code }));
        else if (!isProductAvailable(located.product)) {
          const { product } = located;
          await ctx.reply(
            t('buy-unavailable-code', { product: product.product_name, code: product.code, status: productStatusWord(t, product.status) }),
          );
        } else next = { step: 'target', product: located.product, brand: located.brand };
      }
    }
    if (next === 'back') {
      if (stack.length > 1) stack.pop();
    } else if (next.step === view.step) stack[stack.length - 1] = next;
    else stack.push(next);
  }

  /** The picked product and target, as the summary takes them; the picker message keeps a line saying so. */
  async function chosen(product: ProductJson, target: string): Promise<Selection> {
    await closeButtons();
    return { items: [{ code: product.code, productName: product.product_name, price: product.price, target }], problems: [] };
  }
}
