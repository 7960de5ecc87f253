import { InlineKeyboard } from 'grammy';
import { createCallbackData } from 'callback-data';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { isLocale, serviceNames } from '../../domain.ts';
import { showDisconnectPicker, showServicePicker } from './connect.ts';
import { languageNames, showLanguagePicker } from './language.ts';
import { conversationIds, enterFlow } from '../conversations/ids.ts';
import { FastComposer } from '../composer.ts';
import { readTap } from '../guards.ts';
import { displayName } from '../../notify/downline-notices.ts';

/**
 * /settings (/pengaturan), also the main menu's ⚙️ button: what is connected, the language and
 * whether a PIN is set, with buttons that do what /connect, /disconnect (only when something is
 * connected), /language and /pin do (/account is the marketplace account, a different thing).
 * /pin sets, changes or removes the purchase PIN and /toko (/shop) edits the shop profile printed
 * on customer receipts, each in its conversation. Private chats only.
 */
export const settingsFeature = new FastComposer<BotContext>();
/** Buttons of the settings screen: `connect`, `disconnect`, `language` or `pin`. */
const settingsData = createCallbackData('settings', { action: String });
const privateChat = settingsFeature.chatType('private');

/** What /pin does: the PIN conversation, instead of any other flow. Also behind the settings screen's button. */
async function startPin(ctx: BotContext): Promise<void> {
  await enterFlow(ctx, conversationIds.pin);
}

privateChat.command('pin', startPin);
privateChat.command(commandNames('shop'), (ctx) => enterFlow(ctx, conversationIds.shop));

privateChat.command(commandNames('settings'), async (ctx) => {
  const userId = ctx.from.id;
  const infos = await Promise.all(serviceNames.map((service) => ctx.deps.db.credentials.info(userId, service)));
  // A downline's reseller service is their upline's account (they connect none of their own).
  const membership = ctx.deps.settings.downlines ? ctx.account?.membership : undefined;
  const upline = membership ? await ctx.deps.db.users.get(membership.uplineId) : undefined;
  const services = serviceNames.map((service, i) => {
    const name = ctx.t(`service-${service}`);
    const info = infos[i];
    if (membership && service === 'reseller' && !info) {
      return ctx.t('settings-service-upline', { service: name, name: upline ? displayName(upline) : '-' });
    }
    return info
      ? ctx.t('settings-service-connected', { service: name, label: info.label ?? '-' })
      : ctx.t('settings-service-missing', { service: name });
  });
  const locale = await ctx.i18n.getLocale();
  const text = [
    ctx.t('settings-title'),
    [ctx.t('settings-services'), ...services].join('\n'),
    [
      ctx.t('settings-language', { language: isLocale(locale) ? languageNames[locale] : locale }),
      ctx.t((await ctx.deps.services.pin.hasPin(userId)) ? 'settings-pin-on' : 'settings-pin-off'),
    ].join('\n'),
  ].join('\n\n');
  const button = (key: string, action: string) => InlineKeyboard.text(ctx.t(key), settingsData.pack({ action }));
  const keyboard = new InlineKeyboard([
    // Disconnecting is offered only when there is something to disconnect.
    infos.some(Boolean)
      ? [button('settings-button-connect', 'connect'), button('settings-button-disconnect', 'disconnect')]
      : [button('settings-button-connect', 'connect')],
    [button('settings-button-language', 'language'), button('settings-button-pin', 'pin')],
  ]);
  await ctx.reply(text, { reply_markup: keyboard });
});

const actions = new Map<string, (ctx: BotContext) => Promise<void>>([
  ['connect', showServicePicker],
  ['disconnect', showDisconnectPicker],
  ['language', showLanguagePicker],
  ['pin', startPin],
]);

// The screen stays as it is (its buttons can be tapped again); each tap answers like its command.
settingsFeature.callbackQuery(settingsData.filter(), async (ctx) => {
  const action = await readTap(ctx, settingsData, ({ action }) => actions.get(action), { privateOnly: true });
  if (!action) return;
  await ctx.answerCallbackQuery();
  await action(ctx);
});
