import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';

/** /start and /help: greet, say what to do next, list the commands. */
export const startFeature = new Composer<BotContext>();

startFeature.command('start', async (ctx) => {
  const name = ctx.from?.first_name ?? '';
  if (ctx.chat.type !== 'private') {
    await ctx.reply(ctx.t('start-group'));
    return;
  }
  const connected = ctx.from ? ctx.deps.store.credentials.listServices(ctx.from.id).length > 0 : false;
  await ctx.reply(ctx.t(connected ? 'start-welcome-connected' : 'start-welcome', { name }));
});

startFeature.command(commandNames('help'), async (ctx) => {
  await ctx.reply(ctx.t('help-text'), { link_preview_options: { is_disabled: true } });
});
