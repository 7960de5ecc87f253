import type { BotConversation, BotDeps, ConversationContext, PendingQuestion } from '../context.ts';
import { privateChatOf, waitForAnswer } from './ask.ts';
import { quietly } from '../edits.ts';
import { sellStepData } from '../callback-data/sell.ts';
import { readCallback } from '../callback-data/read.ts';
import { createSellCancelKeyboard, createSellMenuKeyboard, createSellStepKeyboard } from '../keyboards/sell.ts';
import { ambiguousText, describeMarkup, renderSellRules, sellFigures, tooLargeText } from '../renderers/sell.ts';
import {
  parseOverride,
  readMarkup,
  roundingSteps,
  sellPriceOf,
  withBrandRule,
  withDefaultRule,
  withProductRule,
  type Markup,
  type SellRules,
} from '../../services/pricing.ts';
import type { SellArgs } from './ids.ts';
import { raw } from '../../text/html.ts';
import { isOfBrand } from '../../services/brands.ts';

type Received = { kind: 'text'; text: string } | { kind: 'button'; step: string; ctx: ConversationContext };

/** One typed override line, read. */
type OverrideLine = { name: string; markup: Markup | 'remove' };

const isSellButton = (data: string | undefined): boolean => data !== undefined && sellStepData.filter().test(data);

/**
 * Builds the sell conversation (/jual's buttons): sets the sell-price rules. `default` waits for a
 * markup (`5%`, `Rp 1.500`), then a rounding step; `brand` and `product` for override lines
 * (`TELKOMSEL 1000`, `TSEL10 =12500`, `TSEL10 hapus`). Bad input gets the syntax; a bare small
 * number (`10`) both spellings. Answers with the stored rules (for overrides, what they make of the
 * cached price list, a loss flagged). Cancel and /cancel stop it.
 */
export function createSellConversation(deps: BotDeps) {
  return async function sell(conversation: BotConversation, ctx: ConversationContext, args?: SellArgs): Promise<void> {
    const chat = await privateChatOf(ctx);
    if (!chat) return;
    const { userId } = chat;
    const t = ctx.t;
    const mode = args?.mode === 'brand' || args?.mode === 'product' ? args.mode : 'default';

    const receive = (repeat: PendingQuestion, hint: string): Promise<Received> =>
      waitForAnswer(conversation, {
        ownsButton: isSellButton,
        repeat,
        accept: (next): Received | undefined => {
          const data = next.callbackQuery?.data;
          if (data !== undefined) {
            const step = readCallback(() => sellStepData.unpack(data).step);
            return step === undefined ? undefined : { kind: 'button', step, ctx: next };
          }
          const text = next.message?.text?.trim();
          return text === undefined || text === '' ? undefined : { kind: 'text', text };
        },
        otherwise: (next) => (next.callbackQuery ? quietly(next.answerCallbackQuery({ text: t('unhandled-callback') })) : next.reply(hint)),
      });

    /** Asks `question` and waits for an answer `read` accepts; undefined after Cancel. */
    const ask = async <T>(
      question: PendingQuestion,
      read: (answer: Received) => { value: T } | { problem: string } | undefined,
      hint: string,
    ): Promise<T | undefined> => {
      await ctx.reply(question.text, question.reply_markup ? { reply_markup: question.reply_markup } : {});
      for (;;) {
        const got = await receive(question, hint);
        if (got.kind === 'button' && got.step === 'cancel') {
          await quietly(got.ctx.answerCallbackQuery());
          await quietly(got.ctx.editMessageReplyMarkup());
          await ctx.reply(t('sell-cancelled'));
          return undefined;
        }
        const result = read(got);
        if (got.kind === 'button') await quietly(got.ctx.answerCallbackQuery(result && 'value' in result ? {} : { text: hint }));
        else if (result === undefined) await ctx.reply(hint);
        if (result === undefined) continue;
        if ('value' in result) {
          if (got.kind === 'button') await quietly(got.ctx.editMessageReplyMarkup());
          return result.value;
        }
        await ctx.reply(result.problem);
      }
    };

    /** Stores the rules `change` makes of the current ones; resolves the stored rules. */
    const save = (change: (rules: SellRules | undefined) => SellRules) =>
      conversation.external(() => deps.services.accounts.changeSellRules(userId, change));

    const cancelKeyboard = createSellCancelKeyboard(t);
    let rules: SellRules;
    let checked: string[] = [];
    if (mode === 'default') {
      const markup = await ask<Markup>(
        { text: t('sell-ask-default'), reply_markup: cancelKeyboard },
        (got) => {
          if (got.kind !== 'text') return undefined;
          const read = readMarkup(got.text);
          if (!read) return { problem: t('sell-bad-default', { text: got.text.slice(0, 40) }) };
          if ('ambiguous' in read) return { problem: ambiguousText(t, got.text, read.ambiguous) };
          return 'markup' in read ? { value: read.markup } : { problem: tooLargeText(t, got.text) };
        },
        t('sell-text-only'),
      );
      if (markup === undefined) return;
      const step = await ask<number>(
        { text: t('sell-ask-step', { markup: raw(describeMarkup(t, markup)) }), reply_markup: createSellStepKeyboard(t) },
        (got) => {
          const step = got.kind === 'button' ? Number(got.step) : NaN;
          return (roundingSteps as readonly number[]).includes(step) ? { value: step } : undefined;
        },
        t('sell-use-step-buttons'),
      );
      if (step === undefined) return;
      rules = await save((current) => withDefaultRule(current, markup, step));
    } else {
      const lines = await ask<OverrideLine[]>(
        { text: t(`sell-ask-${mode}`), reply_markup: cancelKeyboard },
        (got) => {
          if (got.kind !== 'text') return undefined;
          const read: OverrideLine[] = [];
          for (const line of got.text.split('\n').filter((l) => l.trim() !== '')) {
            const parsed = parseOverride(line, { price: mode === 'product' });
            if (!parsed) return { problem: t(`sell-bad-${mode}`, { text: line.trim().slice(0, 40) }) };
            if ('tooLarge' in parsed) return { problem: tooLargeText(t, line) };
            if ('ambiguous' in parsed) return { problem: ambiguousText(t, line, parsed.ambiguous, { name: parsed.name }) };
            read.push(parsed);
          }
          return read.length > 0 ? { value: read } : undefined;
        },
        t('sell-text-only'),
      );
      if (lines === undefined) return;
      const apply = mode === 'brand' ? withBrandRule : withProductRule;
      rules = await save((current) =>
        lines.reduce<SellRules | undefined>(
          (acc, line) => apply(acc, line.name, line.markup === 'remove' ? undefined : line.markup),
          current,
        )!,
      );
      const names = lines.filter((l) => l.markup !== 'remove').map((l) => l.name);
      checked = await checkOverrides(mode, names, rules);
    }
    const text = [t('sell-saved'), ...(checked.length > 0 ? ['', ...checked] : []), '', renderSellRules(t, rules)].join('\n');
    await ctx.reply(text, { reply_markup: createSellMenuKeyboard(t) });

    /** Each override's `cost → sell (margin)` on the cached price list (for a brand: its count and one product), or that none matches. */
    async function checkOverrides(kind: 'brand' | 'product', names: string[], current: SellRules): Promise<string[]> {
      const found = await conversation.external(async () => {
        try {
          const list = await deps.services.catalogue.priceList(userId);
          const brands = deps.services.catalogue
            .brands(list)
            .slice(0, 4)
            .map((group) => group.brand);
          const matches = names.map((name) =>
            list.filter((p) => (kind === 'product' ? p.code.toUpperCase() === name : isOfBrand(p, name))),
          );
          return { brands, matches: matches.map((m) => ({ first: m[0] ?? null, count: m.length })) };
        } catch {
          return undefined;
        }
      });
      if (!found) return [];
      return names.map((name, i) => {
        const match = found.matches[i];
        if (!match?.first) {
          return kind === 'product'
            ? t('sell-not-in-list', { code: name })
            : t('sell-brand-not-in-list', { brand: name, examples: found.brands.join(', ') });
        }
        const figures = raw(sellFigures(t, sellPriceOf(current, match.first)));
        return kind === 'product'
          ? t('sell-check-line', { code: name, figures })
          : t('sell-brand-check', { brand: name, count: match.count, code: match.first.code, figures });
      });
    }
  };
}
