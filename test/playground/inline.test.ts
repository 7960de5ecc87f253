import { afterEach, describe, expect, it } from 'vitest';
import { Bot, GrammyError } from 'grammy';
import { startBotApi, type BotApiEmulator } from '../../tools/playground/bot-api.ts';
import type { BotApiOptions } from '../../tools/playground/types.ts';

const running: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (running.length) await running.pop()!();
});

async function emulator(options: BotApiOptions = {}): Promise<BotApiEmulator> {
  const api = await startBotApi({ inlineMode: true, ...options });
  running.push(() => api.close());
  return api;
}

function startBot(api: BotApiEmulator, setup: (bot: Bot) => void): Bot {
  const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
  setup(bot);
  void bot.start({ timeout: 30 });
  running.push(() => bot.stop());
  return bot;
}

const article = (id: string, text: string) => ({
  type: 'article' as const,
  id,
  title: `Title ${id}`,
  input_message_content: { message_text: text, parse_mode: 'HTML' as const },
});

describe('inline mode in the emulator', () => {
  it('a user types @bot query: the bot gets inline_query and its answer is recorded', async () => {
    const api = await emulator();
    expect(api.botInfo.supports_inline_queries).toBe(true);
    const budi = api.createUser({ firstName: 'Budi', languageCode: 'id' });
    startBot(api, (bot) =>
      bot.on('inline_query', (ctx) =>
        ctx.answerInlineQuery([article('a', `<b>${ctx.inlineQuery.query}</b>`)], {
          cache_time: 5,
          is_personal: true,
          next_offset: '20',
          button: { text: 'Open the bot', start_parameter: 'inline' },
        }),
      ),
    );
    const query = api.sendInlineQuery(budi, 'tsel 10', { chatType: 'group' });
    expect(query).toMatchObject({ query: 'tsel 10', offset: '', from: { id: budi.id }, chat_type: 'group' });
    const answer = await api.waitForInlineAnswer(query);
    expect(answer).toMatchObject({
      inlineQueryId: query.id,
      cacheTime: 5,
      isPersonal: true,
      nextOffset: '20',
      button: { text: 'Open the bot', start_parameter: 'inline' },
    });
    expect(answer.results).toHaveLength(1);
    expect(api.inlineAnswers).toHaveLength(1);
  });

  it('passes the offset of the next page', async () => {
    const api = await emulator();
    const budi = api.createUser({ firstName: 'Budi' });
    startBot(api, (bot) => bot.on('inline_query', (ctx) => ctx.answerInlineQuery([article(`o${ctx.inlineQuery.offset}`, 'x')])));
    const answer = await api.waitForInlineAnswer(api.sendInlineQuery(budi, 'tsel', { offset: '20' }));
    expect(answer.results[0]?.id).toBe('o20');
  });

  it('refuses inline queries when the bot has no inline mode (BotFather /setinline)', async () => {
    const api = await emulator({ inlineMode: false });
    const budi = api.createUser({ firstName: 'Budi' });
    expect(api.botInfo.supports_inline_queries).toBe(false);
    expect(() => api.sendInlineQuery(budi, 'tsel')).toThrow(/setinline/);
  });

  it('answers like Telegram to a bad answer: too many results, duplicate ids, a second answer, a bad start parameter', async () => {
    const api = await emulator();
    const budi = api.createUser({ firstName: 'Budi' });
    const errors: string[] = [];
    startBot(api, (bot) =>
      bot.on('inline_query', async (ctx) => {
        const tries = [
          () => ctx.answerInlineQuery(Array.from({ length: 51 }, (_, i) => article(`r${i}`, 'x'))),
          () => ctx.answerInlineQuery([article('same', 'x'), article('same', 'y')]),
          () => ctx.answerInlineQuery([], { button: { text: 'Open', start_parameter: 'no spaces allowed' } }),
          () => ctx.answerInlineQuery([article('ok', 'x')]),
          () => ctx.answerInlineQuery([article('again', 'x')]),
        ];
        for (const attempt of tries) {
          await attempt().catch((error: unknown) => errors.push(error instanceof GrammyError ? error.description : String(error)));
        }
      }),
    );
    await api.waitForInlineAnswer(api.sendInlineQuery(budi, 'x'));
    await api.waitFor(() => errors.length === 4);
    expect(errors).toEqual([
      'Bad Request: RESULTS_TOO_MUCH',
      'Bad Request: RESULT_ID_DUPLICATE',
      'Bad Request: START_PARAM_INVALID',
      'Bad Request: query is too old and response timeout expired or query ID is invalid',
    ]);
  });

  it('choosing a result posts its message in the chat, from the user and via the bot', async () => {
    const api = await emulator();
    const budi = api.createUser({ firstName: 'Budi' });
    const customer = api.createUser({ firstName: 'Siti' });
    const group = api.createGroup({ title: 'Pelanggan', members: [budi, customer] });
    const seen: string[] = [];
    startBot(api, (bot) => {
      bot.on('inline_query', (ctx) => ctx.answerInlineQuery([article('TSEL10', '<b>Telkomsel 10.000</b>\nRp 12.000')]));
      bot.on('message', (ctx) => void seen.push(ctx.message.via_bot?.username ?? 'direct'));
    });
    const answer = await api.waitForInlineAnswer(api.sendInlineQuery(budi, 'tsel 10'));
    const sent = api.chooseInlineResult(budi, answer, 'TSEL10', { chat: group });
    expect(sent.text).toBe('Telkomsel 10.000\nRp 12.000');
    expect(sent.fromBot).toBe(false);
    expect(sent.message.from?.id).toBe(budi.id);
    expect(sent.message.via_bot?.id).toBe(api.botInfo.id);
    expect(sent.message.entities).toEqual([{ type: 'bold', offset: 0, length: 16 }]);
    expect(api.messages(group).at(-1)).toBe(sent);
    // A message sent via the bot reaches the bot even in privacy mode.
    await api.waitFor(() => seen.length === 1);
    expect(seen).toEqual([api.botInfo.username]);
    expect(() => api.chooseInlineResult(budi, answer, 'nope')).toThrow(/no result "nope"/);
  });
});
