/**
 * Inline mode of the emulator: a user types `@bot query` (an `inline_query` update), the bot's
 * `answerInlineQuery` is checked like Telegram does and recorded, and the user may choose a result,
 * which posts its message in a chat as the user's, `via_bot` the bot (and, with inline feedback
 * on, queues `chosen_inline_result`). The bot must have inline mode (`inlineMode` option, what
 * BotFather's /setinline turns on).
 */
import type { InlineQuery, InlineQueryResult, InlineQueryResultsButton, Message, Update } from 'grammy/types';
import { applyParseMode } from './formatting.ts';
import { parseReplyMarkup } from './methods.ts';
import { badRequest, type Params } from './params.ts';
import type { ChatRef, InlineAnswer, SendInlineQueryOptions, WaitOptions } from './types.ts';
import { clone, compact, type StoredMessage, type World } from './world.ts';

/** How long Telegram waits for an answer to an inline query (emulator clock). */
export const inlineQueryTtlMs = 10_000;
const maxResults = 50;
const tooOld = 'query is too old and response timeout expired or query ID is invalid';

export class InlineMode {
  readonly inlineAnswers: InlineAnswer[] = [];
  private nextQueryNumber = 1;

  constructor(private readonly world: World) {
    world.methods.answerinlinequery = (p) => this.answer(p);
  }

  /** The user types `@bot text` in a chat of `chatType` (default `sender`, their chat with the bot). */
  sendInlineQuery(userRef: number | { readonly id: number }, text: string, options: SendInlineQueryOptions = {}): InlineQuery {
    const { world } = this;
    if (!world.botInfo.supports_inline_queries)
      throw new Error('sendInlineQuery: the bot has no inline mode (BotFather /setinline); start the emulator with inlineMode: true.');
    const state = world.requireUser(userRef);
    const query: InlineQuery = compact({
      id: String(9_000_000_000_000_000 + this.nextQueryNumber++),
      from: state.user,
      query: text,
      offset: options.offset ?? '',
      chat_type: options.chatType ?? 'sender',
    });
    this.world.inlineQueries.set(query.id, { query, at: world.now(), answered: false });
    world.enqueue({ inline_query: clone(query) });
    return query;
  }

  /** answerInlineQuery, checked as Telegram checks it. */
  private answer(p: Params): true {
    const id = p.str('inline_query_id') ?? '';
    const entry = this.world.inlineQueries.get(id);
    if (!entry || entry.answered || this.world.now() - entry.at > inlineQueryTtlMs) throw badRequest(tooOld);
    const results = p.json('results');
    if (!Array.isArray(results)) throw badRequest("can't parse results JSON object");
    if (results.length > maxResults) throw badRequest('RESULTS_TOO_MUCH');
    const ids = new Set<string>();
    for (const result of results as Array<Record<string, unknown>>) {
      const resultId = typeof result?.id === 'string' ? result.id : '';
      if (resultId === '' || Buffer.byteLength(resultId) > 64) throw badRequest('RESULT_ID_INVALID');
      if (ids.has(resultId)) throw badRequest('RESULT_ID_DUPLICATE');
      ids.add(resultId);
      if (result.type === 'article') {
        if (typeof result.title !== 'string' || result.title === '') throw badRequest('RESULT_TITLE_EMPTY');
        const content = result.input_message_content as Record<string, unknown> | undefined;
        if (typeof content?.message_text !== 'string' || content.message_text.trim() === '') throw badRequest('MESSAGE_EMPTY');
      }
      parseReplyMarkup(result.reply_markup);
    }
    const nextOffset = p.str('next_offset');
    if (nextOffset !== undefined && Buffer.byteLength(nextOffset) > 64) throw badRequest('NEXT_OFFSET_INVALID');
    const button = p.json('button') as InlineQueryResultsButton | undefined;
    if (button !== undefined) {
      if (typeof button.text !== 'string' || button.text === '') throw badRequest('BUTTON_TEXT_INVALID');
      const start = button.start_parameter;
      if (button.web_app === undefined && (typeof start !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(start)))
        throw badRequest('START_PARAM_INVALID');
    }
    entry.answered = true;
    this.inlineAnswers.push(
      compact({
        inlineQueryId: id,
        query: clone(entry.query),
        results: results as InlineQueryResult[],
        nextOffset: nextOffset === '' ? undefined : nextOffset,
        cacheTime: p.int('cache_time'),
        isPersonal: p.bool('is_personal'),
        button,
        at: this.world.now(),
      }),
    );
    return true;
  }

  /** Waits until the bot answered the inline query. */
  waitForInlineAnswer(query: string | { readonly id: string }, options: WaitOptions = {}): Promise<InlineAnswer> {
    const id = typeof query === 'string' ? query : query.id;
    return this.world.waitFor(() => this.inlineAnswers.find((a) => a.inlineQueryId === id), {
      ...options,
      message: options.message ?? `waitForInlineAnswer: inline query ${id} was not answered`,
    });
  }

  /**
   * The user picks result `resultId` of an answer: its text message appears in `chat` (default the
   * user's chat with the bot) from the user, `via_bot` the bot. The bot gets the message where it
   * would (its private chat; a group it is in, privacy mode or not), and `chosen_inline_result`
   * when the emulator has `inlineFeedback`.
   */
  chooseInlineResult(
    userRef: number | { readonly id: number },
    answer: InlineAnswer,
    resultId: string,
    options: { chat?: ChatRef } = {},
  ): StoredMessage {
    const { world } = this;
    const state = world.requireUser(userRef);
    const result = answer.results.find((r) => r.id === resultId);
    if (!result)
      throw new Error(`chooseInlineResult: the answer has no result "${resultId}" (${answer.results.map((r) => r.id).join(', ')}).`);
    const content = 'input_message_content' in result ? (result.input_message_content as Record<string, unknown> | undefined) : undefined;
    if (typeof content?.message_text !== 'string') throw new Error('chooseInlineResult: only results with a text message are emulated.');
    const chat = world.requireChat(options.chat ?? state.user.id);
    if (chat.type !== 'private' && !['creator', 'administrator', 'member'].includes(chat.members.get(state.user.id) ?? 'left'))
      throw new Error(`chooseInlineResult: user ${state.user.id} is not a member of group ${chat.id}.`);
    const formatted = Array.isArray(content.entities)
      ? { text: content.message_text, entities: content.entities as Message['entities'] & object }
      : applyParseMode(content.message_text, typeof content.parse_mode === 'string' ? content.parse_mode : undefined);
    const markup = parseReplyMarkup('reply_markup' in result ? result.reply_markup : undefined);
    const stored = world.storeMessage(
      chat,
      {
        from: state.user,
        text: formatted.text,
        entities: formatted.entities.length ? formatted.entities : undefined,
        via_bot: world.botUser,
        reply_markup: markup.inline,
      },
      false,
      undefined,
    );
    const botThere =
      chat.type === 'private' ? chat.userId === state.user.id : chat.botStatus === 'member' || chat.botStatus === 'administrator';
    if (botThere) world.enqueue({ message: clone(stored.message) } as Omit<Update, 'update_id'>);
    if (world.inlineFeedback) world.enqueue({ chosen_inline_result: { result_id: resultId, from: state.user, query: answer.query.query } });
    world.changed();
    return stored;
  }
}
