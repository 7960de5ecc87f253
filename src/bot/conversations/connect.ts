import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';
import type { ConnectArgs } from './ids.ts';
import type { ServiceName } from '../../domain.ts';
import { providerFailureOf, type ProviderErrorJson, type ServiceCredentials } from '../../services/providers.ts';
import { describeProviderError } from '../provider-errors.ts';
import { connectData } from '../callback-data/connect.ts';
import { createConnectCancelKeyboard, createConnectRetryKeyboard, createServicePickerKeyboard } from '../keyboards/connect.ts';
import { deleteSecretMessage, waitForAnswer } from './ask.ts';
import { editOrReply, quietly } from '../edits.ts';
import { raw } from '../../text/html.ts';
import { createMainMenuKeyboard } from '../keyboards/main-menu.ts';

/** The check-and-save step's result: the stored label, the provider's refusal, or a bug (logged). */
type ConnectOutcome = { ok: true; label: string } | { ok: false; error: ProviderErrorJson } | { ok: false; error?: undefined };

/** What a prompt got: the text the user sent (trimmed) with its message, or a tap on Cancel. */
type Answer = { kind: 'text'; text: string; ctx: ConversationContext } | { kind: 'cancel'; ctx: ConversationContext };

/** The flow's only button is Cancel; every other button (the picker's too) leaves it. */
const isCancel = (data: string | undefined): boolean => data !== undefined && connectData.filter({ action: 'cancel' }).test(data);

/**
 * Builds the connect conversation. Without a service it sends the service picker and ends; with one
 * it waits for the API ID (reseller) and the API key, each prompt with Cancel until answered. Every
 * message with a credential is deleted at once (if Telegram refuses, the user is told to). The
 * credentials are checked with one real provider call and stored encrypted only when accepted;
 * refused ones get a "try again" button. It ends in the update the key arrives in, so the key
 * never waits in stored state.
 */
export function createConnectConversation(deps: BotDeps) {
  return async function connect(conversation: BotConversation, ctx: ConversationContext, args?: ConnectArgs): Promise<void> {
    const userId = ctx.from?.id;
    const chatId = ctx.chat?.id;
    if (userId === undefined || chatId === undefined) return;
    const service = args?.service;
    if (service === undefined) {
      await ctx.reply(ctx.t('connect-choose'), { reply_markup: createServicePickerKeyboard(ctx.t) });
      return;
    }
    const serviceName = ctx.t(`service-${service}`);

    /** Sends `prompt` and waits for text; undefined after Cancel. */
    const ask = async (prompt: string): Promise<{ text: string; ctx: ConversationContext } | undefined> => {
      const keyboard = createConnectCancelKeyboard(ctx.t, service);
      const sent = await ctx.reply(prompt, { reply_markup: keyboard });
      const got = await waitForAnswer(conversation, {
        ownsButton: isCancel,
        repeat: { text: prompt, reply_markup: keyboard },
        accept: (next): Answer | undefined => {
          if (next.callbackQuery) return { kind: 'cancel', ctx: next };
          const text = next.message?.text?.trim();
          return text ? { kind: 'text', text, ctx: next } : undefined;
        },
        otherwise: (next) => next.reply(next.t('connect-text-only')),
      });
      if (got.kind === 'text') {
        // The prompt is answered: its Cancel button would only mislead from now on.
        await quietly(got.ctx.api.editMessageReplyMarkup(chatId, sent.message_id));
        return got;
      }
      await quietly(got.ctx.answerCallbackQuery());
      await quietly(got.ctx.editMessageReplyMarkup());
      await got.ctx.reply(got.ctx.t('connect-cancelled'));
      return undefined;
    };

    let keyPrompt: string;
    let apiId: string | undefined;
    if (service === 'reseller') {
      const id = await ask(ctx.t('connect-ask-api-id', { service: serviceName }));
      if (!id) return;
      apiId = id.text;
      // Not a secret in itself, but users paste the ID and the key together often enough.
      if (!(await deleteSecretMessage(conversation, deps, id.ctx))) await ctx.reply(ctx.t('connect-delete-failed'));
      keyPrompt = ctx.t('connect-ask-api-key', { service: serviceName });
    } else {
      keyPrompt = ctx.t('connect-ask-key-only', { service: serviceName });
    }
    const key = await ask(keyPrompt);
    if (!key) return;
    const credentials: ServiceCredentials[ServiceName] = apiId === undefined ? { apiKey: key.text } : { apiId, apiKey: key.text };

    // From here on the key is only in memory: the conversation ends in this same update.
    if (!(await deleteSecretMessage(conversation, deps, key.ctx))) await ctx.reply(ctx.t('connect-delete-failed'));
    const checking = await ctx.reply(ctx.t('connect-checking', { service: serviceName }));

    const outcome = await conversation.external(async (): Promise<ConnectOutcome> => {
      deps.logger.addSecret(credentials.apiKey);
      try {
        const label = await deps.services.credentials.verifyAndSave(userId, service, credentials);
        if (service === 'reseller') await deps.services.catalogue.forget(userId);
        deps.logger.info('service connected', { userId, service });
        return { ok: true, label };
      } catch (error) {
        const failure = providerFailureOf(error);
        if (failure) {
          deps.logger.warn('credentials not accepted; nothing stored', { userId, service, error });
          return { ok: false, error: failure };
        }
        deps.logger.error('could not check or db credentials', { userId, service, error });
        return { ok: false };
      }
    });

    if (outcome.ok) {
      // A new message rather than an edit of "checking": it brings the main menu (a reply keyboard
      // only comes with a new message).
      const next = ctx.t(`connect-next-${service}`);
      const text = `${ctx.t('connect-done', { service: serviceName, label: outcome.label })}\n\n${next}`;
      await quietly(ctx.api.deleteMessage(chatId, checking.message_id));
      await ctx.reply(text, { reply_markup: createMainMenuKeyboard(ctx.t) });
      return;
    }
    let text: string;
    if (outcome.error?.kind === 'credentials') {
      text = ctx.t('connect-rejected', { service: serviceName });
    } else if (outcome.error) {
      const problem = describeProviderError(ctx.t, outcome.error, deps.settings.publicIp);
      text = ctx.t('connect-failed', { problem: raw(problem) });
    } else {
      text = ctx.t('connect-failed-generic');
    }
    await editOrReply(ctx, checking.message_id, text, { reply_markup: createConnectRetryKeyboard(ctx.t, service) });
  };
}
