import { InlineKeyboard } from 'grammy';
import { createCallbackData } from 'callback-data';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { isLocale, supportedLocales, type Locale } from '../../domain.ts';
import { withoutEmptyRows } from '../keyboards/rows.ts';
import { createMainMenuKeyboard } from '../keyboards/main-menu.ts';
import { FastComposer } from '../composer.ts';
import { readTap } from '../guards.ts';

/** Button of the /language picker. */
const languageData = createCallbackData('lang', { locale: String });

export const languageNames: Record<Locale, string> = { id: '🇮🇩 Bahasa Indonesia', en: '🇬🇧 English' };

/** /language (/bahasa): pick Indonesian or English; the choice is remembered. */
export const languageFeature = new FastComposer<BotContext>();

/** What /language answers: the language picker. Also behind the settings screen's button. */
export async function showLanguagePicker(ctx: BotContext): Promise<void> {
  // One language per row; the row left open after the last one is dropped (Telegram shows it as a gap).
  const keyboard = new InlineKeyboard();
  for (const locale of supportedLocales) keyboard.text(languageNames[locale], languageData.pack({ locale })).row();
  await ctx.reply(ctx.t('language-choose'), { reply_markup: withoutEmptyRows(keyboard) });
}

languageFeature.command(commandNames('language'), showLanguagePicker);

languageFeature.callbackQuery(languageData.filter(), async (ctx) => {
  const locale = await readTap(ctx, languageData, ({ locale }) => [locale].find(isLocale));
  if (!locale) return;
  await ctx.deps.services.accounts.setLocale(ctx.from.id, locale);
  ctx.i18n.useLocale(locale);
  await ctx.answerCallbackQuery();
  await ctx.editMessageText(ctx.t('language-changed'));
  // The main menu's labels follow the language: a reply keyboard only comes with a new message.
  if (ctx.chat?.type === 'private') await ctx.reply(ctx.t('menu-ready'), { reply_markup: createMainMenuKeyboard(ctx.t) });
});
