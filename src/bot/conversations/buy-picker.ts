/**
 * The /beli picker: category → brand → product → target by taps, one message edited in place, with
 * ⬅️ Back and ❌ Cancel; the target step offers the last five destinations of that brand. A code
 * typed before the target step goes to its target step, `CODE TARGET` lines straight to the summary.
 *
 * Not `conversation.menu()`: a menu answers an outdated button silently (and logs a stack trace),
 * its ids (`//0`…) are the same in every run so an earlier flow's button of the same layout counts
 * as current, and the steps need typed text and the leave rule of `ask.ts` too. Here every button
 * carries the picker's id and its rendering's number: anything else is outdated.
 */
import { createHash } from 'node:crypto';
import type { InlineKeyboard } from 'grammy';
import type { ConversationContext, PendingQuestion } from '../context.ts';
import type { Selection } from '../renderers/purchase.ts';
import { capitalise, targetProblemText } from '../renderers/purchase.ts';
import { renderPickerStep, type PickerData, type PickerView } from '../renderers/buy-picker.ts';
import { isBuyPickerData, readBuyPickerData, type BuyPickerAction } from '../callback-data/buy-picker.ts';
import { readBuyData } from '../callback-data/buy.ts';
import { waitForAnswer } from './ask.ts';
import { lookupFailed, productJson, resolveLines, withPriceList, type BuyFlow, type ProductJson } from './buy-flow.ts';
import { editOrReply, quietly } from '../edits.ts';
import { categoryOf, groupByCategory } from '../../services/catalogue.ts';
import { brandOf, groupByBrand } from '../../services/brands.ts';
import { isProductAvailable, type Product, type ProviderErrorJson } from '../../services/providers.ts';
import { maxQuickBuyLines, normaliseTarget, parseBuyCommand, targetKindOf } from '../../services/targets.ts';
import { raw } from '../../text/html.ts';
import { productStatusWord } from '../../text/product-status.ts';

type Loaded<T> = { ok: true; value: T } | { ok: false; error?: ProviderErrorJson };
type Located = { product: ProductJson; category: string; brand: string } | null;
type Received =
  | { kind: 'text'; ctx: ConversationContext; text: string }
  | { kind: 'button'; ctx: ConversationContext; action: BuyPickerAction; n: number };

/** The picker's id: derived from the update that started the conversation, so every replay agrees. */
function pickerIdOf(ctx: ConversationContext): string {
  return createHash('sha256').update(`kiosbot-picker:${ctx.chat?.id}:${ctx.update.update_id}`).digest('base64url').slice(0, 8);
}

/** A running picker: its flow, id and message. */
interface Picker {
  env: BuyFlow;
  /** The picker's id, carried by its buttons. */
  flow: string;
  /** The picker message; the next step is shown by editing it (`edit`, after a tap on it) rather than as a new one. */
  state: { messageId: number | undefined; edit: boolean; rendering: number };
  /** Removes the picker message's buttons (the flow moved on to a new message, or ended). */
  closeButtons: () => Promise<void>;
}

/** What one answer does: nothing yet, move the picker to another step, or end it (with what to buy). */
type Answer = { kind: 'stay' } | { kind: 'move'; to: PickerView | 'back' } | { kind: 'end'; selection: Selection | undefined };
const stay: Answer = { kind: 'stay' };

/**
 * Runs the picker: taps on its buttons, typed codes or targets. `initialCode` (`/beli CODE`, a
 * product button elsewhere) starts at that product's target step. Its reads are `external` steps.
 * Resolves with what to buy, or undefined after a cancel or an unreadable price list (the user was told).
 */
export async function pickPurchase(env: BuyFlow, initialCode?: string): Promise<Selection | undefined> {
  const { ctx, chatId } = env;
  const state: Picker['state'] = { messageId: undefined, edit: false, rendering: 0 };
  const picker: Picker = {
    env,
    flow: pickerIdOf(ctx),
    state,
    closeButtons: async () => {
      if (state.messageId !== undefined) await quietly(ctx.api.editMessageReplyMarkup(chatId, state.messageId));
    },
  };
  const stack = await startingSteps(picker, initialCode);
  if (!stack) return undefined;
  for (;;) {
    const view = stack.at(-1) ?? { step: 'category', page: 0 };
    const shown = await showStep(picker, view, stack.length > 1);
    if (!shown) return undefined;
    const answer = await answerUntilMoved(picker, view, shown);
    if (answer.kind === 'end') return answer.selection;
    const next = answer.to;
    if (next === 'back') {
      if (stack.length > 1) stack.pop();
    } else if (next.step === view.step) stack[stack.length - 1] = next;
    else stack.push(next);
  }
}

/** Reads the price list (cached by the catalogue service) for `task`, as plain JSON. */
function readList<T>(env: BuyFlow, task: (list: Product[]) => T | Promise<T>) {
  return env.conversation.external((): Promise<Loaded<T>> =>
    withPriceList(env.deps, env.userId, undefined, 'the buy picker', async (list) => ({ ok: true, value: await task(list) })),
  );
}

const productsOf = (list: Product[], category: string) => groupByCategory(list).find((c) => c.category === category)?.products ?? [];

/** What a step shows. */
function load(env: BuyFlow, view: PickerView): Promise<Loaded<PickerData>> {
  if (view.step === 'target') {
    return env.conversation.external(async (): Promise<Loaded<PickerData>> => ({
      ok: true,
      value: { step: 'target', recent: await env.deps.services.recentTargets.forBrand(env.userId, view.brand) },
    }));
  }
  return readList(env, (list): PickerData => {
    if (view.step === 'category') {
      return { step: 'category', categories: groupByCategory(list).map((c) => ({ category: c.category, count: c.products.length })) };
    }
    const brands = groupByBrand(productsOf(list, view.category));
    if (view.step === 'brand') return { step: 'brand', brands: brands.map((b) => ({ brand: b.brand, count: b.products.length })) };
    return { step: 'product', products: (brands.find((b) => b.brand === view.brand)?.products ?? []).map(productJson) };
  });
}

/** A product by code, with the category and brand the picker files it under. */
function locate(env: BuyFlow, code: string) {
  return readList(env, (list): Located => {
    const product = list.find((p) => p.code.toUpperCase() === code.toUpperCase());
    if (!product) return null;
    const category = categoryOf(product);
    const brand = groupByBrand(productsOf(list, category)).find((b) => b.products.includes(product))?.brand ?? brandOf(product);
    return { product: productJson(product), category, brand };
  });
}

/** The located product when it can be bought; otherwise tells the user why not (unknown `code`, or unavailable). */
async function buyable(picker: Picker, code: string, located: Located): Promise<NonNullable<Located> | undefined> {
  const { t } = picker.env;
  const { ctx } = picker.env;
  if (!located) await ctx.reply(t('buy-unknown-code', { code }));
  else if (!isProductAvailable(located.product)) {
    const { product } = located;
    await ctx.reply(
      t('buy-unavailable-code', { product: product.product_name, code: product.code, status: productStatusWord(t, product.status) }),
    );
  } else return located;
  return undefined;
}

/** Where to start: the category step, or `initialCode`'s target step (above its category, brand and product steps). */
async function startingSteps(picker: Picker, initialCode: string | undefined): Promise<PickerView[] | undefined> {
  const stack: PickerView[] = [{ step: 'category', page: 0 }];
  if (initialCode === undefined) return stack;
  const found = await locate(picker.env, initialCode);
  if (!found.ok) {
    await lookupFailed(picker.env, found.error);
    return undefined;
  }
  const located = await buyable(picker, initialCode, found.value);
  if (located) {
    const { product, category, brand } = located;
    stack.push({ step: 'brand', category, page: 0 }, { step: 'product', category, brand, page: 0 }, { step: 'target', product, brand });
  }
  return stack;
}

/** A step as shown: its data, text, keyboard and rendering number (its buttons carry it). */
type Shown = { data: PickerData; text: string; keyboard: InlineKeyboard; current: number };

/**
 * Loads and shows `view` (with ⬅️ Back when `back`), by editing the picker message after a tap on
 * it, otherwise as a new message; undefined when the price list could not be read (the user was told).
 */
async function showStep(picker: Picker, view: PickerView, back: boolean): Promise<Shown | undefined> {
  const { state, env } = picker;
  const loaded = await load(env, view);
  if (!loaded.ok) {
    await picker.closeButtons();
    await lookupFailed(env, loaded.error);
    return undefined;
  }
  const data = loaded.value;
  const stamp = { flow: picker.flow, view: ++state.rendering };
  const { text, keyboard } = renderPickerStep(env.t, view, data, stamp, back);
  if (state.edit && state.messageId !== undefined)
    state.messageId = await editOrReply(env.ctx, state.messageId, text, { reply_markup: keyboard });
  else {
    await picker.closeButtons();
    state.messageId = (await env.ctx.reply(text, { reply_markup: keyboard })).message_id;
  }
  return { data, text, keyboard, current: stamp.view };
}

/** Waits for an answer to the step rendered as `current` (an older rendering's button is outdated). */
function receive(picker: Picker, current: number, repeat: PendingQuestion): Promise<Received> {
  const { flow, state } = picker;
  const { t } = picker.env;
  return waitForAnswer(picker.env.conversation, {
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
      if (tapped !== undefined && tapped !== state.messageId) await quietly(next.editMessageReplyMarkup());
    },
    leave: picker.closeButtons,
  });
}

/** Answers until one moves the picker to another step or ends it. */
async function answerUntilMoved(picker: Picker, view: PickerView, shown: Shown): Promise<Exclude<Answer, { kind: 'stay' }>> {
  for (;;) {
    const got = await receive(picker, shown.current, { text: shown.text, reply_markup: shown.keyboard });
    const answer = got.kind === 'button' ? await onTap(picker, view, shown.data, got) : await onText(picker, view, got.text);
    if (answer.kind !== 'stay') return answer;
  }
}

/** A tap on one of the step's buttons. */
async function onTap(picker: Picker, view: PickerView, data: PickerData, got: Extract<Received, { kind: 'button' }>): Promise<Answer> {
  const { state } = picker;
  const { t } = picker.env;
  const { action, n } = got;
  // A tap on the copy an information command left below (see ask.ts) moves the picker there.
  const tapped = got.ctx.callbackQuery?.message?.message_id;
  if (tapped !== undefined && tapped !== state.messageId) {
    await picker.closeButtons();
    state.messageId = tapped;
  }
  if (action === 'cancel') {
    await quietly(got.ctx.answerCallbackQuery());
    await picker.closeButtons();
    await picker.env.ctx.reply(t('buy-cancelled'));
    return { kind: 'end', selection: undefined };
  }
  let next: PickerView | 'back' | undefined;
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
      const status = t('buy-picker-unavailable', { name: raw(product.product_name), status: raw(productStatusWord(t, product.status)) });
      await quietly(got.ctx.answerCallbackQuery({ text: status.slice(0, 200), show_alert: true }));
      return stay;
    }
    if (product) next = { step: 'target', product, brand: view.brand };
  } else if (view.step === 'target' && data.step === 'target') {
    const target = data.recent[n];
    if (target !== undefined) {
      await quietly(got.ctx.answerCallbackQuery());
      return takeTarget(picker, view.product, target, target);
    }
  }
  await quietly(got.ctx.answerCallbackQuery());
  state.edit = true;
  return next === undefined ? stay : { kind: 'move', to: next };
}

/** Typed text: the target at the target step, otherwise a code or CODE.TARGET line(s). */
async function onText(picker: Picker, view: PickerView, text: string): Promise<Answer> {
  const { env } = picker;
  const { t } = env;
  picker.state.edit = false;
  if (view.step === 'target') return takeTarget(picker, view.product, text, text.trim());
  const parsed = parseBuyCommand(text);
  const [first] = parsed.lines;
  if (parsed.count > maxQuickBuyLines) await env.ctx.reply(t('buy-too-many-lines', { max: maxQuickBuyLines, count: parsed.count }));
  else if (!first) await env.ctx.reply(t('buy-code-format'));
  else if (parsed.lines.length > 1 || first.target !== undefined) {
    await picker.closeButtons();
    return { kind: 'end', selection: await resolveLines(env, parsed.lines, parsed.problems) };
  } else {
    const found = await locate(env, first.code);
    if (!found.ok) {
      await picker.closeButtons();
      await lookupFailed(env, found.error);
      return { kind: 'end', selection: undefined };
    }
    const located = await buyable(picker, first.code, found.value);
    if (located) return { kind: 'move', to: { step: 'target', product: located.product, brand: located.brand } };
  }
  return stay;
}

/** `target` (as tapped or typed; `shown` in the retry hint) for `product`: the purchase when it is valid, else a retry hint. */
async function takeTarget(picker: Picker, product: ProductJson, target: string, shown: string): Promise<Answer> {
  const { t } = picker.env;
  const check = normaliseTarget(target, targetKindOf(product));
  if (check.ok) {
    await picker.closeButtons();
    const item = { code: product.code, productName: product.product_name, price: product.price, target: check.target };
    return { kind: 'end', selection: { items: [item], problems: [] } };
  }
  await picker.env.ctx.reply(t('buy-target-retry', { problem: raw(capitalise(targetProblemText(t, check.problem, shown))) }));
  return stay;
}
