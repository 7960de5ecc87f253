import { InlineKeyboard } from 'grammy';
import type { BotConversation, BotDeps, ConversationContext, PendingQuestion } from '../context.ts';
import type { ShopProfile, TargetStyle } from '../../store/records/users.ts';
import { readShopField, shopFieldLimits, type ShopField, type ShopFieldProblem } from '../../services/shop-profile.ts';
import { shopData } from '../callback-data/shop.ts';
import { readCallback } from '../callback-data/read.ts';
import { raw } from '../../text/html.ts';
import { quietly } from '../edits.ts';
import { waitForAnswer } from './ask.ts';

/** What arrived while the conversation waited: text, or a tap on one of its buttons. */
type Received = { kind: 'text'; text: string } | { kind: 'button'; action: string; ctx: ConversationContext };

const isShopButton = (data: string | undefined): boolean => data !== undefined && shopData.filter().test(data);

/** The actions of the profile menu: a field to change, delete, done. */
const menuActions = ['name', 'address', 'footer', 'target', 'delete', 'done'] as const;

/**
 * Builds the /toko conversation: the shop profile printed on customer receipts. Without one it asks
 * for the name, the address and the footer (⏭ Skip), and how the target shows (❌ Cancel stores
 * nothing). Then the profile with a menu: change a field (🧹 Clear empties one), delete, or done;
 * each change is stored at once and the menu comes again.
 */
export function createShopConversation(deps: BotDeps) {
  return async function shop(conversation: BotConversation, ctx: ConversationContext): Promise<void> {
    const userId = ctx.from?.id;
    if (userId === undefined) return;
    const t = ctx.t;
    const button = (key: string, action: string) => InlineKeyboard.text(t(key), shopData.pack({ action }));

    const receive = (question: PendingQuestion): Promise<Received> =>
      waitForAnswer(conversation, {
        ownsButton: isShopButton,
        repeat: question,
        accept: (next): Received | undefined => {
          const data = next.callbackQuery?.data;
          if (data !== undefined) return { kind: 'button', action: readCallback(() => shopData.unpack(data).action) ?? '', ctx: next };
          const text = next.message?.text;
          return text === undefined ? undefined : { kind: 'text', text };
        },
        otherwise: (next) => next.reply(t('shop-text-only')),
      });

    /** Sends `question`, waits for one of `actions` (then its buttons go) or, when `acceptsText`, a text; other text gets the question again. */
    const ask = async (question: PendingQuestion, actions: readonly string[], acceptsText: boolean): Promise<Received> => {
      const send = () => ctx.reply(question.text, question.reply_markup ? { reply_markup: question.reply_markup } : {});
      await send();
      for (;;) {
        const got = await receive(question);
        if (got.kind === 'text') {
          if (acceptsText) return got;
          await send();
          continue;
        }
        if (actions.includes(got.action)) {
          await quietly(got.ctx.answerCallbackQuery());
          await quietly(got.ctx.editMessageReplyMarkup());
          return got;
        }
        await quietly(got.ctx.answerCallbackQuery({ text: t('unhandled-callback') }));
      }
    };

    /** Asks for `field`: its value, null for ⏭ Skip / 🧹 Clear (`extra`), undefined for ❌ Cancel. */
    const askField = async (field: ShopField, prompt: string, extra?: 'skip' | 'clear'): Promise<string | null | undefined> => {
      const keyboard = new InlineKeyboard();
      if (extra) keyboard.add(button(`shop-button-${extra}`, extra));
      keyboard.add(button('shop-button-cancel', 'cancel'));
      let question: PendingQuestion = { text: prompt, reply_markup: keyboard };
      for (;;) {
        const got = await ask(question, ['cancel', ...(extra ? [extra] : [])], true);
        if (got.kind === 'button') return got.action === 'cancel' ? undefined : null;
        const read = readShopField(field, got.text);
        if ('value' in read) return read.value;
        question = { text: shopFieldProblemText(t, read), reply_markup: keyboard };
      }
    };

    /** Asks how the target shows: full or masked; undefined for ❌ Cancel. */
    const askTarget = async (): Promise<TargetStyle | undefined> => {
      const keyboard = new InlineKeyboard()
        .add(button('shop-button-full', 'full'), button('shop-button-masked', 'masked'))
        .row()
        .add(button('shop-button-cancel', 'cancel'));
      const got = await ask({ text: t('shop-ask-target'), reply_markup: keyboard }, ['full', 'masked', 'cancel'], false);
      return got.kind === 'button' && (got.action === 'full' || got.action === 'masked') ? got.action : undefined;
    };

    /** Stores `profile` (undefined: removes it); false after logging when the store refused. */
    const save = (profile: ShopProfile | undefined): Promise<boolean> =>
      conversation.external(async () => {
        try {
          await deps.services.accounts.setShop(userId, profile);
          deps.logger.info(profile ? 'shop profile saved' : 'shop profile deleted', { userId });
          return true;
        } catch (error) {
          deps.logger.error('could not save the shop profile', { userId, error });
          return false;
        }
      });

    const promptFor = (field: ShopField) => t(`shop-ask-${field}`, { max: shopFieldLimits[field] });
    let profile = await conversation.external(async () => (await deps.db.users.get(userId))?.shop ?? null);
    let note: string | undefined;
    if (profile === null) {
      const name = await askField('name', t('shop-intro', { max: shopFieldLimits.name }));
      const address = name ? await askField('address', promptFor('address'), 'skip') : undefined;
      const footer = address !== undefined ? await askField('footer', promptFor('footer'), 'skip') : undefined;
      const target = footer !== undefined ? await askTarget() : undefined;
      if (!name || target === undefined) {
        await ctx.reply(t('shop-cancelled'));
        return;
      }
      profile = { name, target, ...(address ? { address } : {}), ...(footer ? { footer } : {}) };
      if (!(await save(profile))) return void (await ctx.reply(t('shop-failed')));
      note = t('shop-saved');
    }

    for (;;) {
      const none = raw(t('shop-none'));
      const shown = t('shop-profile', {
        name: profile.name,
        address: profile.address ?? none,
        footer: profile.footer ?? none,
        target: raw(t(`shop-target-${profile.target}`)),
      });
      const menu = new InlineKeyboard()
        .add(button('shop-button-name', 'name'), button('shop-button-address', 'address'))
        .row()
        .add(button('shop-button-footer', 'footer'), button('shop-button-target', 'target'))
        .row()
        .add(button('shop-button-delete', 'delete'), button('shop-button-done', 'done'));
      const got = await ask({ text: note ? `${note}\n\n${shown}` : shown, reply_markup: menu }, menuActions, false);
      const action = got.kind === 'button' ? got.action : 'done';
      if (action === 'done') return void (await ctx.reply(t('shop-done')));
      if (action === 'delete') return void (await ctx.reply(t((await save(undefined)) ? 'shop-deleted' : 'shop-failed')));
      let next: ShopProfile | undefined;
      if (action === 'target') {
        const target = await askTarget();
        if (target) next = { ...profile, target };
      } else if (action === 'name') {
        const name = await askField('name', promptFor('name'));
        if (name) next = { ...profile, name };
      } else if (action === 'address' || action === 'footer') {
        const value = await askField(action, promptFor(action), 'clear');
        if (value !== undefined) {
          next = { ...profile };
          if (value === null) delete next[action];
          else next[action] = value;
        }
      }
      note = undefined;
      if (next) {
        if (!(await save(next))) return void (await ctx.reply(t('shop-failed')));
        profile = next;
        note = t('shop-saved');
      }
    }
  };
}

/** What to say about a refused field value; the question follows it. */
function shopFieldProblemText(t: ConversationContext['t'], problem: ShopFieldProblem): string {
  if ('tooLong' in problem) return t('shop-too-long', { max: problem.tooLong });
  if ('tooManyLines' in problem) return t('shop-too-many-lines', { max: problem.tooManyLines });
  if ('oneLine' in problem) return t('shop-one-line');
  if ('invisible' in problem) return t('shop-invisible');
  return t('shop-text-only');
}
