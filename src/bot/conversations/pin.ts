import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { BotConversation, BotDeps, ConversationContext, PendingQuestion } from '../context.ts';
import { isValidPin } from '../../services/pin.ts';
import { formatWibIn } from '../../text/format.ts';
import { pinData } from '../callback-data/pin.ts';
import { deleteSecretMessage, waitForAnswer } from './ask.ts';
import { quietly } from '../edits.ts';

/** What arrived while the conversation waited: text (with its message id) or one of its buttons. */
type Received = { kind: 'text'; text: string; ctx: ConversationContext } | { kind: 'button'; action: string; ctx: ConversationContext };

/** Result of checking a typed PIN, as plain JSON. */
export type PinCheck = { ok: true } | { ok: false; left: number } | { ok: false; until: string };

/** True for callback data of the /pin buttons (Change, Remove, Cancel). */
const isPinButton = (data: string | undefined): boolean => data !== undefined && pinData.filter().test(data);

/** True for PINs anyone would try first: one digit repeated (`0000`) or a run up or down (`1234`, `987654`). */
export function isGuessablePin(pin: string): boolean {
  const digits = [...pin].map(Number);
  if (digits.every((d) => d === digits[0])) return true;
  const steps = digits.slice(1).map((d, i) => d - (digits[i] ?? 0));
  return steps.every((s) => s === 1) || steps.every((s) => s === -1);
}

/** What every step of one /pin run needs. */
interface PinRun {
  conversation: BotConversation;
  ctx: ConversationContext;
  deps: BotDeps;
  t: TranslateFunction;
  userId: number;
  cancelKeyboard: InlineKeyboard;
  /** The last PIN question asked; repeated when the user strays, also while a later ask sends no prompt of its own. */
  pending: PendingQuestion | undefined;
}

/**
 * Builds the /pin conversation: sets, changes or removes the purchase PIN. Without one it waits for
 * a new PIN (4–6 digits, not guessable) twice; with one it offers Change / Remove / Cancel, then
 * waits for the current PIN (wrong ones count toward the lock). Every message carrying a PIN is
 * deleted at once; the PIN is stored as a salted hash, typed ones stay in the encrypted state only
 * until it ends. A command or another feature's button ends it; Cancel and /cancel stop it.
 */
export function createPinConversation(deps: BotDeps) {
  return async function pin(conversation: BotConversation, ctx: ConversationContext): Promise<void> {
    const userId = ctx.from?.id;
    const chatId = ctx.chat?.id;
    if (userId === undefined || chatId === undefined) return;
    const t = ctx.t;
    const cancelKeyboard = new InlineKeyboard().text(t('pin-button-cancel'), pinData.pack({ action: 'cancel' }));
    const run: PinRun = { conversation, ctx, deps, t, userId, cancelKeyboard, pending: undefined };

    const state = await conversation.external(async () => ({
      hasPin: await deps.services.pin.hasPin(userId),
      lockedUntil: (await deps.services.pin.lockedUntil(userId))?.toISOString(),
    }));
    if (state.lockedUntil !== undefined) {
      await ctx.reply(t('pin-locked', { until: formatWibIn(t, state.lockedUntil) }));
      return;
    }

    let action: 'set' | 'change' | 'remove' = 'set';
    if (state.hasPin) {
      const picked = await chooseAction(run);
      if (picked === undefined) return;
      action = picked;
      if (!(await checkCurrentPin(run))) return;
    } else {
      await ctx.reply(t('pin-intro'));
    }

    if (action === 'remove') return storePin(run, action);
    const chosen = await askNewPin(run);
    if (chosen === undefined) return;
    await storePin(run, action, chosen);
  };
}

/** Waits for text (trimmed) or a tap on a /pin button; anything else (a photo, a sticker) gets a hint. */
function receive(run: PinRun, repeat: PendingQuestion | undefined): Promise<Received> {
  const { t } = run;
  return waitForAnswer(run.conversation, {
    ownsButton: isPinButton,
    repeat,
    accept: (next): Received | undefined => {
      const data = next.callbackQuery?.data;
      if (data !== undefined) return { kind: 'button', action: pinData.unpack(data).action, ctx: next };
      const text = next.message?.text?.trim();
      return text === undefined ? undefined : { kind: 'text', text, ctx: next };
    },
    otherwise: (next) => next.reply(t('pin-text-only')),
  });
}

/** Ends the conversation after a Cancel tap. */
async function cancelled(run: PinRun, button: ConversationContext): Promise<void> {
  await quietly(button.answerCallbackQuery());
  await quietly(button.editMessageReplyMarkup());
  await run.ctx.reply(run.t('pin-cancelled'));
}

/** Sends `prompt` (when given) and waits for a well-formed PIN, deleting every text; undefined after Cancel. */
async function askPin(run: PinRun, prompt: string | undefined): Promise<string | undefined> {
  const { ctx, t } = run;
  if (prompt !== undefined) {
    run.pending = { text: prompt, reply_markup: run.cancelKeyboard };
    await ctx.reply(prompt, { reply_markup: run.cancelKeyboard });
  }
  for (;;) {
    const got = await receive(run, run.pending);
    if (got.kind === 'button') {
      if (got.action === 'cancel') {
        await cancelled(run, got.ctx);
        return undefined;
      }
      await quietly(got.ctx.answerCallbackQuery({ text: t('unhandled-callback') }));
      continue;
    }
    if (!(await deleteSecretMessage(run.conversation, run.deps, got.ctx))) await ctx.reply(t('pin-delete-failed'));
    if (isValidPin(got.text)) return got.text;
    await ctx.reply(t('pin-format'));
  }
}

/** Offers Change / Remove / Cancel and waits for a tap. Undefined when the user cancelled (already answered). */
async function chooseAction(run: PinRun): Promise<'change' | 'remove' | undefined> {
  const { ctx, t } = run;
  const menu = new InlineKeyboard()
    .text(t('pin-button-change'), pinData.pack({ action: 'change' }))
    .text(t('pin-button-remove'), pinData.pack({ action: 'remove' }))
    .row()
    .text(t('pin-button-cancel'), pinData.pack({ action: 'cancel' }));
  await ctx.reply(t('pin-menu'), { reply_markup: menu });
  for (;;) {
    const got = await receive(run, { text: t('pin-menu'), reply_markup: menu });
    if (got.kind === 'text') {
      await ctx.reply(t('pin-menu'), { reply_markup: menu });
      continue;
    }
    if (got.action === 'cancel') {
      await cancelled(run, got.ctx);
      return undefined;
    }
    if (got.action !== 'change' && got.action !== 'remove') {
      await quietly(got.ctx.answerCallbackQuery({ text: t('unhandled-callback') }));
      continue;
    }
    await quietly(got.ctx.answerCallbackQuery());
    await quietly(got.ctx.editMessageReplyMarkup());
    return got.action;
  }
}

/** Waits for the current PIN until it is right; false after Cancel or a lock (the user was told until when). */
async function checkCurrentPin(run: PinRun): Promise<boolean> {
  const { conversation, ctx, deps, t, userId } = run;
  let prompt: string | undefined = t('pin-ask-current');
  for (;;) {
    const current = await askPin(run, prompt);
    if (current === undefined) return false;
    prompt = undefined;
    const check = await verifyPin(conversation, deps, userId, current);
    if (check.ok) return true;
    if ('until' in check) {
      await ctx.reply(t('pin-locked', { until: formatWibIn(t, check.until) }));
      return false;
    }
    await ctx.reply(t('pin-wrong', { left: check.left }));
  }
}

/**
 * Checks a typed PIN (one `external` step; wrong ones count toward the lock): right, wrong with the
 * tries left, or locked until. Also the buy flow's check.
 */
export function verifyPin(conversation: BotConversation, deps: BotDeps, userId: number, entered: string): Promise<PinCheck> {
  return conversation.external(async (): Promise<PinCheck> => {
    const result = await deps.services.pin.verify(userId, entered);
    if (result.ok) return { ok: true };
    if (result.locked) {
      deps.logger.warn('purchase PIN locked after too many wrong tries', { userId, until: result.until.toISOString() });
      return { ok: false, until: result.until.toISOString() };
    }
    return { ok: false, left: result.attemptsLeft };
  });
}

/** Waits for a new PIN, typed twice (a guessable one is refused). Undefined when the user cancelled. */
async function askNewPin(run: PinRun): Promise<string | undefined> {
  const { ctx, t } = run;
  let prompt: string | undefined = t('pin-ask-new');
  for (;;) {
    const first = await askPin(run, prompt);
    if (first === undefined) return undefined;
    prompt = undefined;
    if (isGuessablePin(first)) {
      await ctx.reply(t('pin-weak'));
      continue;
    }
    const again = await askPin(run, t('pin-ask-confirm'));
    if (again === undefined) return undefined;
    if (again !== first) {
      await ctx.reply(t('pin-mismatch'));
      continue;
    }
    return first;
  }
}

/** What each action did, in its log line and its reply (`pin-set`, `pin-changed`, `pin-removed`). */
const pinDone = { set: 'set', change: 'changed', remove: 'removed' } as const;

/** Stores `chosen` as the PIN (or removes it) and says whether it worked. */
async function storePin(run: PinRun, action: keyof typeof pinDone, chosen = ''): Promise<void> {
  const { deps, userId } = run;
  const stored = await run.conversation.external(async () => {
    try {
      if (action === 'remove') await deps.services.pin.remove(userId);
      else await deps.services.pin.set(userId, chosen);
      deps.logger.info(`purchase PIN ${pinDone[action]}`, { userId });
      return true;
    } catch (error) {
      deps.logger.error(action === 'remove' ? 'could not remove the purchase PIN' : 'could not save the purchase PIN', { userId, error });
      return false;
    }
  });
  await run.ctx.reply(run.t(stored ? `pin-${pinDone[action]}` : 'pin-failed'));
}
