import { randomBytes } from 'node:crypto';
import { InputFile, type InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { BotConversation, BotDeps, ConversationContext, PendingQuestion } from '../context.ts';
import type { OrderArgs } from './ids.ts';
import { escapeHtml, formatRupiah } from '../../text/format.ts';
import { privateChatOf, waitForAnswer } from './ask.ts';
import { quietly } from '../edits.ts';
import { askGame, createOrderQuestions, matchGames, type Answer, type AskQuestion } from './order-questions.ts';
import {
  createOrderChoiceKeyboard,
  createOrderSummaryKeyboard,
  createPayKeyboard,
  createPromoInvalidKeyboard,
} from '../keyboards/gameshop.ts';
import { isButtonUrl } from '../keyboards/rows.ts';
import { readOrderConfirmData, readOrderStepData, type OrderConfirmAction } from '../callback-data/gameshop.ts';
import {
  describeOrderFailure,
  paymentCodeOf,
  productText,
  renderCreatedOrder,
  renderOrderReminder,
  renderOrderSummary,
  renderQrCaption,
  renderRefusedFields,
} from '../renderers/game-order.ts';
import type { CreatedGameOrder, GameInfo, GameOrderDraft, GameOrderFailure, ListedGame } from '../../services/game-orders.ts';
import { raw } from '../../text/html.ts';
import { renderQrPng } from '../../text/qris.ts';

/** What a wait of this flow may take: a typed text, the current question's button, the current confirmation's button. */
type Received = Answer | { kind: 'confirm'; action: OrderConfirmAction; ctx: ConversationContext };

/** What to do after a failed order. */
type NextMove = { to: 'summary' } | { to: 'create'; confirmationId: string } | { to: 'end' };

/** True for callback data of the order flow's own buttons (questions and confirmations, current or old). */
const ownsButton = (data: string | undefined): boolean => readOrderStepData(data) !== undefined || readOrderConfirmData(data) !== undefined;

/**
 * Creates the game order conversation, the one way a game top-up is ordered. Entered with
 * `OrderArgs` (from /games or `/pesan slug`), else it asks for the game; then the questions of
 * order-questions.ts and a tap under the summary. The confirmation id is minted BEFORE each summary
 * and "Order now" creates the order for it in one `external` step, at most once (a double tap,
 * replay or restart gets the stored order). Failures are answered, never thrown: a 422 asks again
 * for the refused fields, a refused promo offers to drop or replace it, an unknown outcome says to
 * check before ordering again (never retried). Ends after showing the order (its QR drawn from a
 * QRIS string that is never printed), or after a cancel.
 */
export function createOrderConversation(deps: BotDeps) {
  const gameOrders = deps.services.gameOrders;

  return async function orderConversation(conversation: BotConversation, ctx: ConversationContext, args?: OrderArgs): Promise<void> {
    const t = ctx.t;
    const chat = await privateChatOf(ctx);
    if (!chat) return;
    const { userId, chatId } = chat;

    // Connected? The shop's games, and a flow id for this run's buttons.
    const start = await conversation.external(async () => {
      const outcome = await gameOrders.games(userId);
      return outcome.ok ? { ...outcome, flow: randomBytes(6).toString('base64url') } : outcome;
    });
    if (!start.ok) {
      await ctx.reply(describeOrderFailure(t, start.error, deps.settings.publicIp));
      return;
    }
    const { flow, games } = start;
    if (games.length === 0) {
      await ctx.reply(t('order-no-games'));
      return;
    }
    const run: OrderFlow = { conversation, ctx, deps, t, userId, chatId, flow };
    const question = createQuestion(run);

    const loadInfo = (chosen: ListedGame): Promise<GameInfo> => conversation.external(() => gameOrders.gameInfo(chosen, userId));
    const game = await chooseGame(run, question, games, args);
    const state = { game, info: await loadInfo(game) };
    const draft: GameOrderDraft = { quantity: 1 };
    const questions = createOrderQuestions({ t, question, draft, state, games, loadInfo });
    await questions.askAll();
    await placeOrder({ ...run, state, draft, questions });
  };
}

/** What every step of one order run needs. */
interface OrderFlow {
  conversation: BotConversation;
  ctx: ConversationContext;
  deps: BotDeps;
  t: TranslateFunction;
  userId: number;
  chatId: number;
  /** This run's id in its question buttons: a button of an earlier run is old. */
  flow: string;
}

/** A run once the game is chosen: its answers so far and the questions that write them. */
interface OrderRun extends OrderFlow {
  /** The chosen game and what the flow knows of it (a new game replaces both). */
  state: { game: ListedGame; info: GameInfo };
  draft: GameOrderDraft;
  questions: ReturnType<typeof createOrderQuestions>;
}

/** Answers a button this flow no longer waits for: an earlier question's, or an earlier summary's (done, with the order id, or expired). */
async function answerOldButton(run: OrderFlow, button: ConversationContext): Promise<void> {
  const { t, deps, userId } = run;
  const confirm = readOrderConfirmData(button.callbackQuery?.data);
  if (!confirm) {
    await quietly(button.answerCallbackQuery({ text: t('order-button-old') }));
    return;
  }
  const orderId = await run.conversation.external(
    async () => (await deps.services.gameOrders.findByConfirmation(userId, confirm.id))?.orderId ?? null,
  );
  await quietly(
    button.answerCallbackQuery({
      text: orderId === null ? t('order-summary-expired') : t('order-already-created', { orderId: raw(orderId) }),
      show_alert: orderId !== null,
    }),
  );
  await quietly(button.editMessageReplyMarkup());
}

/** Waits for text (when `text`), a tap on the current question's button (`step`) or on the current confirmation's (`confirmationId`). */
function receive(
  run: OrderFlow,
  expect: { step?: number; confirmationId?: string; text: boolean; hint: string; repeat: PendingQuestion },
): Promise<Received> {
  return waitForAnswer(run.conversation, {
    ownsButton,
    repeat: expect.repeat,
    accept: (next): Received | undefined => {
      const data = next.callbackQuery?.data;
      const choice = readOrderStepData(data);
      if (choice) return choice.flow === run.flow && choice.step === expect.step ? { kind: 'choice', value: choice.value } : undefined;
      const confirm = readOrderConfirmData(data);
      if (confirm) return confirm.id === expect.confirmationId ? { kind: 'confirm', action: confirm.action, ctx: next } : undefined;
      const text = next.message?.text;
      return text !== undefined && expect.text ? { kind: 'text', text } : undefined;
    },
    otherwise: (next) => (next.callbackQuery ? answerOldButton(run, next) : next.reply(expect.hint)),
  });
}

/** The run's way of asking a question: each question numbers its buttons so an earlier question's are old. */
function createQuestion(run: OrderFlow): AskQuestion {
  const { ctx, t, chatId } = run;
  let step = 0;
  /**
   * Asks one question and waits for the answer. A tapped choice is written under the question and
   * its buttons removed; a typed answer removes them too.
   */
  return async (text, choices = [], options = {}) => {
    step += 1;
    const current = step;
    const keyboard = createOrderChoiceKeyboard(t, run.flow, current, choices, options);
    const asked = await ctx.reply(text, { reply_markup: keyboard });
    const repeat = keyboard ? { text, reply_markup: keyboard } : { text };
    const got = await receive(run, { step: current, text: true, hint: t('order-answer-hint'), repeat });
    if (got.kind === 'choice') {
      const label = got.value === 'skip' ? t('order-skipped') : (choices.find((c) => c.value === got.value)?.label ?? got.value);
      await quietly(ctx.api.editMessageText(chatId, asked.message_id, `${text}\n\n👉 <b>${escapeHtml(label)}</b>`));
      return got;
    }
    if (keyboard) await quietly(ctx.api.editMessageReplyMarkup(chatId, asked.message_id));
    return got.kind === 'text' ? got : { kind: 'text', text: '' };
  };
}

/** The game named by `args` when it names exactly one (else says so), or the one the user picks. */
async function chooseGame(run: OrderFlow, question: AskQuestion, games: ListedGame[], args: OrderArgs | undefined): Promise<ListedGame> {
  const { ctx, t } = run;
  const requested = typeof args?.game === 'string' ? args.game.trim().slice(0, 100) : '';
  const requestedMatches = requested === '' ? [] : matchGames(games, requested);
  const named = requestedMatches.length === 1 ? requestedMatches[0] : undefined;
  if (requested !== '' && !named) await ctx.reply(t('order-game-not-listed', { game: requested }));
  return named ?? (await askGame({ t, question, games }));
}

/** The summary until the order is created (then shown), cancelled, or failed beyond repair here. */
async function placeOrder(run: OrderRun): Promise<void> {
  const { conversation, deps, t, userId, chatId, state, draft } = run;
  let ready: string | undefined;
  for (;;) {
    const confirmationId = ready ?? (await confirmSummary(run));
    ready = undefined;
    if (confirmationId === undefined) return;
    const request = { confirmationId, userId, chatId, game: { slug: state.info.slug, title: state.info.title }, draft: { ...draft } };
    const outcome = await conversation.external(() =>
      deps.services.gameOrders.create({ ...request, renderReminder: (order) => renderOrderReminder(t, order) }),
    );
    if (outcome.ok) {
      await showOrder(run, outcome.order);
      return;
    }
    const next = await handleFailure(run, outcome.error);
    if (next.to === 'end') return;
    if (next.to === 'create') ready = next.confirmationId;
  }
}

/**
 * Shows `text` with `keyboard` (tied to a confirmation minted before it is shown) and waits for
 * a tap on one of `actions`; `close` ends the message with a line and without its buttons.
 */
async function offer(
  run: OrderFlow,
  text: string,
  keyboard: (confirmationId: string) => InlineKeyboard,
  actions: readonly OrderConfirmAction[],
) {
  const { ctx, t, chatId } = run;
  const confirmationId = await run.conversation.external(() => randomBytes(9).toString('base64url'));
  const buttons = keyboard(confirmationId);
  const shown = await ctx.reply(text, { reply_markup: buttons });
  const close = (line: string) => quietly(ctx.api.editMessageText(chatId, shown.message_id, `${text}\n\n${line}`));
  for (;;) {
    const got = await receive(run, { confirmationId, text: false, hint: t('order-use-buttons'), repeat: { text, reply_markup: buttons } });
    if (got.kind !== 'confirm') continue;
    if (actions.includes(got.action)) return { confirmationId, action: got.action, button: got.ctx, close };
    // Not a button of this message (forged data): answered, and the wait goes on.
    await quietly(got.ctx.answerCallbackQuery());
  }
}

/** Ends the message with "cancelled" (and without its buttons) and says the order is cancelled. */
async function cancelled(run: OrderFlow, close: (line: string) => Promise<void>): Promise<void> {
  await close(run.t('order-summary-cancelled'));
  await run.ctx.reply(run.t('order-cancelled'));
}

/** Shows the summary and waits for a tap. Undefined: cancelled. */
async function confirmSummary(run: OrderRun): Promise<string | undefined> {
  const { t } = run;
  const tapped = await offer(run, renderOrderSummary(t, run.state.info, run.draft), (id) => createOrderSummaryKeyboard(t, id), [
    'ok',
    'no',
  ]);
  if (tapped.action === 'no') {
    await quietly(tapped.button.answerCallbackQuery());
    await cancelled(run, tapped.close);
    return undefined;
  }
  await quietly(tapped.button.answerCallbackQuery({ text: t('order-in-progress') }));
  await tapped.close(t('order-summary-confirmed'));
  return tapped.confirmationId;
}

/** After "promo code not valid": order without it, ask for another code, or cancel. */
async function promoRefused(run: OrderRun, promo: string, message: string | undefined): Promise<NextMove> {
  const { t } = run;
  const text = t('order-promo-refused', { code: promo, message: message ?? '-' });
  const tapped = await offer(run, text, (id) => createPromoInvalidKeyboard(t, id), ['nopromo', 'promo', 'no']);
  await quietly(tapped.button.answerCallbackQuery(tapped.action === 'nopromo' ? { text: t('order-in-progress') } : {}));
  if (tapped.action === 'nopromo') {
    delete run.draft.promo;
    await tapped.close(t('order-promo-dropped'));
    return { to: 'create', confirmationId: tapped.confirmationId };
  }
  if (tapped.action === 'promo') {
    await tapped.close(t('order-promo-retype'));
    await run.questions.askPromo();
    return { to: 'summary' };
  }
  await cancelled(run, tapped.close);
  return { to: 'end' };
}

/**
 * Shows the created order with its Pay and Copy-code buttons, then the QR: drawn here from a
 * QRIS payment string (the shop's qr_url is not needed), else the shop's qr_url when it has one.
 * A QR Telegram refuses is replaced by its link, or by a pointer to the Pay button.
 */
async function showOrder(run: OrderRun, order: CreatedGameOrder): Promise<void> {
  const { conversation, ctx, deps, t, userId } = run;
  const text = renderCreatedOrder(t, run.state.info, run.draft, order);
  const code = paymentCodeOf(order);
  const keyboard = createPayKeyboard(t, order.paymentUrl, code?.kind === 'code' ? code.code : undefined);
  const noPreview = { link_preview_options: { is_disabled: true } };
  const warn = (message: string, error: unknown) =>
    conversation.external(() => deps.logger.warn(message, { userId, orderId: order.orderId, error }));
  try {
    await ctx.reply(text, { ...noPreview, reply_markup: keyboard });
  } catch (error) {
    // Most likely Telegram refused the button's URL: the same text with the link written out.
    await warn('order message refused; sending it without the Pay button', error);
    const link = order.paymentUrl ? `\n\n${t('order-pay-link', { url: order.paymentUrl })}` : '';
    await quietly(ctx.reply(`${text}${link}`, noPreview));
  }
  const remote = isButtonUrl(order.qrUrl) ? order.qrUrl : undefined;
  if (code?.kind !== 'qris' && remote === undefined) return;
  try {
    // The same payload always draws the same picture, so this needs no `external` on replay.
    const photo = code?.kind === 'qris' ? new InputFile(await renderQrPng(code.payload), `qris-${order.orderId}.png`) : (remote ?? '');
    const caption =
      code?.kind === 'qris'
        ? renderQrCaption(t, order, code.info)
        : t('order-qr-caption', { orderId: order.orderId, total: formatRupiah(order.totalPrice) });
    await ctx.replyWithPhoto(photo, { caption });
  } catch (error) {
    await warn('QR photo could not be sent; pointing to its link or the Pay button instead', error);
    await quietly(ctx.reply(remote ? t('order-qr-failed', { url: remote }) : t('order-qr-failed-no-link'), noPreview));
  }
}

/** Explains a failed order and decides what comes next. */
async function handleFailure(run: OrderRun, error: GameOrderFailure): Promise<NextMove> {
  const { ctx, t, state, draft, questions } = run;
  if (error.kind === 'validation') {
    const refused = renderRefusedFields(t, state.info, error.fieldErrors ?? {}, error.providerMessage);
    await ctx.reply(refused.text);
    if (!refused.fixable) return { to: 'end' };
    await questions.askFields(Object.keys(error.fieldErrors ?? {}));
    return { to: 'summary' };
  }
  if (error.kind === 'rejected' && error.reason === 'product_mismatch') {
    const intro = t('order-product-mismatch', {
      product: draft.product ? productText(draft.product) : '-',
      game: state.info.title,
      message: error.providerMessage ?? '-',
    });
    await questions.askProduct(`${intro}\n\n`);
    return { to: 'summary' };
  }
  if (error.kind === 'rejected' && error.reason === 'promo_invalid' && draft.promo !== undefined)
    return promoRefused(run, draft.promo, error.providerMessage);
  if (error.kind === 'not_found') return notFound(run, error.providerMessage ?? '');
  if (error.kind === 'unknown_outcome' || error.kind === 'malformed') await ctx.reply(t('order-unknown-outcome'));
  else await ctx.reply(describeOrderFailure(t, error, run.deps.settings.publicIp));
  return { to: 'end' };
}

/** After a 404: names what the shop does not know; asks again for the product or method, or ends on an unknown game. */
async function notFound(run: OrderRun, message: string): Promise<NextMove> {
  const { ctx, t, state, questions } = run;
  const what = /produk|product/i.test(message) ? 'product' : /pembayaran|payment/i.test(message) ? 'method' : 'game';
  const explained = t(`order-not-found-${what}`, { message: message || '-', game: state.info.title });
  if (what === 'game') {
    await ctx.reply(explained);
    return { to: 'end' };
  }
  await (what === 'product' ? questions.askProduct(`${explained}\n\n`) : questions.askMethod(`${explained}\n\n`));
  return { to: 'summary' };
}
