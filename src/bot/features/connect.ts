import type { CallbackQueryContext } from 'grammy';
import type { BotContext } from '../context.ts';
import { serviceNames, type ServiceName } from '../../domain.ts';
import { commandNames } from '../commands.ts';
import { formatWibIn } from '../../text/format.ts';
import { conversationIds, enterFlow } from '../conversations/ids.ts';
import { connectData, disconnectData } from '../callback-data/connect.ts';
import { quietly } from '../edits.ts';
import { readTap } from '../guards.ts';
import {
  createDisconnectConfirmKeyboard,
  createDisconnectPickerKeyboard,
  createReplaceKeyboard,
  createServicePickerKeyboard,
  parseServiceName,
} from '../keyboards/connect.ts';
import { FastComposer } from '../composer.ts';

/**
 * /connect (/hubungkan): pick a service, then the connect conversation asks for its credentials.
 * An already connected service is only replaced after the user says so. /disconnect (/putuskan):
 * pick a connected service and confirm; its credentials are deleted. Private chats only.
 */
export const connectFeature = new FastComposer<BotContext>();
const privateChat = connectFeature.chatType('private');

/** What /connect answers: the service picker. Also behind the settings screen's button. */
export async function showServicePicker(ctx: BotContext): Promise<void> {
  // A downline buys through their upline's reseller account: only the other services are theirs to connect.
  const downline = ctx.deps.settings.downlines && ctx.account?.membership !== undefined;
  const services = downline ? serviceNames.filter((service) => service !== 'reseller') : serviceNames;
  await ctx.reply(ctx.t('connect-choose'), { reply_markup: createServicePickerKeyboard(ctx.t, services) });
}

privateChat.command(commandNames('connect'), showServicePicker);

/** The service a /connect or /disconnect button names, or undefined after answering the tap as unknown. */
function tappedService(
  ctx: CallbackQueryContext<BotContext>,
  data: typeof connectData,
  options?: { privateOnly: boolean },
): Promise<ServiceName | undefined> {
  return readTap(ctx, data, ({ service }) => parseServiceName(service), options);
}

/** Leaves any other flow and starts the credential prompts for `service`. */
async function startConnecting(ctx: BotContext, service: ServiceName): Promise<void> {
  await ctx.answerCallbackQuery();
  await quietly(ctx.editMessageText(ctx.t('connect-chosen', { service: ctx.t(`service-${service}`) })));
  // Any conversation still active saw this tap first and passed it on: the user moved on.
  await enterFlow(ctx, conversationIds.connect, { service });
}

connectFeature.callbackQuery(connectData.filter({ action: 'pick' }), async (ctx) => {
  const service = await tappedService(ctx, connectData, { privateOnly: true });
  if (!service) return;
  const info = await ctx.deps.db.credentials.info(ctx.from.id, service);
  if (info) {
    await ctx.answerCallbackQuery();
    const text = ctx.t('connect-already', {
      service: ctx.t(`service-${service}`),
      label: info.label ?? '-',
      since: formatWibIn(ctx.t, info.connectedAt),
    });
    await ctx.editMessageText(text, { reply_markup: createReplaceKeyboard(ctx.t, service) });
    return;
  }
  await startConnecting(ctx, service);
});

connectFeature.callbackQuery(connectData.filter({ action: 'replace' }), async (ctx) => {
  const service = await tappedService(ctx, connectData, { privateOnly: true });
  if (!service) return;
  await startConnecting(ctx, service);
});

// Cancel on the picker (service `-`): nothing was started, so it ends here. Cancel on a
// credential prompt (it names its service) only lands here when that prompt's conversation is
// over (answered elsewhere, left by a command, timed out): the button is stale and changes nothing.
connectFeature.callbackQuery(connectData.filter({ action: 'cancel' }), async (ctx) => {
  const onPicker = await readTap(ctx, connectData, ({ service }) => (service === '-' ? true : undefined));
  if (!onPicker) return;
  await ctx.answerCallbackQuery();
  await quietly(ctx.editMessageReplyMarkup());
  await ctx.reply(ctx.t('connect-cancelled'));
});

/** What /disconnect answers: the connected services to pick from. Also behind the settings screen's button. */
export async function showDisconnectPicker(ctx: BotContext): Promise<void> {
  const userId = ctx.from?.id;
  if (userId === undefined) return;
  const connected = await Promise.all(
    (await ctx.deps.services.credentials.connected(userId)).map(async (service) => ({
      service,
      label: (await ctx.deps.db.credentials.info(userId, service))?.label ?? '-',
    })),
  );
  if (connected.length === 0) {
    await ctx.reply(ctx.t('disconnect-none'));
    return;
  }
  await ctx.reply(ctx.t('disconnect-choose'), { reply_markup: createDisconnectPickerKeyboard(ctx.t, connected) });
}

privateChat.command(commandNames('disconnect'), showDisconnectPicker);

connectFeature.callbackQuery(disconnectData.filter({ action: 'pick' }), async (ctx) => {
  const service = await tappedService(ctx, disconnectData);
  if (!service) return;
  await ctx.answerCallbackQuery();
  const info = await ctx.deps.db.credentials.info(ctx.from.id, service);
  const name = ctx.t(`service-${service}`);
  if (!info) {
    await ctx.editMessageText(ctx.t('disconnect-not-connected', { service: name }));
    return;
  }
  await ctx.editMessageText(ctx.t('disconnect-confirm', { service: name, label: info.label ?? '-' }), {
    reply_markup: createDisconnectConfirmKeyboard(ctx.t, service),
  });
});

connectFeature.callbackQuery(disconnectData.filter({ action: 'confirm' }), async (ctx) => {
  const service = await tappedService(ctx, disconnectData);
  if (!service) return;
  const userId = ctx.from.id;
  const name = ctx.t(`service-${service}`);
  if (!(await ctx.deps.services.credentials.has(userId, service))) {
    await ctx.answerCallbackQuery();
    await ctx.editMessageText(ctx.t('disconnect-not-connected', { service: name }));
    return;
  }
  await ctx.deps.services.credentials.remove(userId, service);
  if (service === 'reseller') await ctx.deps.services.catalogue.forget(userId);
  ctx.deps.logger.info('service disconnected', { userId, service });
  await ctx.answerCallbackQuery();
  await ctx.editMessageText(ctx.t('disconnect-done', { service: name }));
});

connectFeature.callbackQuery(disconnectData.filter({ action: 'keep' }), async (ctx) => {
  const service = parseServiceName(disconnectData.unpack(ctx.callbackQuery.data).service);
  await ctx.answerCallbackQuery();
  if (service) await ctx.editMessageText(ctx.t('disconnect-kept', { service: ctx.t(`service-${service}`) }));
  else await ctx.editMessageText(ctx.t('conversation-cancelled'));
});
