import { Api } from 'grammy';
import { describe, expect, it } from 'vitest';
import { escapeVariables, htmlParseMode, raw } from '../../src/text/html.ts';

/** An Api whose calls never leave the process: each payload is recorded and answered with `true`. */
function recordingApi(): { api: Api; calls: Array<{ method: string; payload: Record<string, unknown> }> } {
  const calls: Array<{ method: string; payload: Record<string, unknown> }> = [];
  const api = new Api('dummy');
  // The transformer installed last runs first: htmlParseMode, then the recorder.
  api.config.use((_prev, method, payload) => {
    calls.push({ method, payload });
    return Promise.resolve({ ok: true, result: true as never });
  });
  api.config.use(htmlParseMode);
  return { api, calls };
}

describe('htmlParseMode', () => {
  it('sends texts and captions as HTML unless the call chose its own formatting', async () => {
    const { api, calls } = recordingApi();
    await api.sendMessage(1, '<b>a</b>');
    await api.editMessageText(1, 2, 'b');
    await api.sendPhoto(1, 'https://example.com/p.jpg', { caption: 'c' });
    await api.sendPhoto(1, 'https://example.com/p.jpg');
    await api.sendMessage(1, '*d*', { parse_mode: 'MarkdownV2' });
    await api.sendMessage(1, 'e', { entities: [{ type: 'bold', offset: 0, length: 1 }] });
    await api.answerCallbackQuery('q', { text: 'f & g' });
    expect(calls.map((call) => [call.method, call.payload.parse_mode])).toEqual([
      ['sendMessage', 'HTML'],
      ['editMessageText', 'HTML'],
      ['sendPhoto', 'HTML'],
      ['sendPhoto', undefined],
      ['sendMessage', 'MarkdownV2'],
      ['sendMessage', undefined],
      ['answerCallbackQuery', undefined],
    ]);
  });

  it('sends the text message of an inline result as HTML unless the result chose its own formatting', async () => {
    const { api, calls } = recordingApi();
    const article = (id: string, content: Record<string, unknown>) =>
      ({ type: 'article', id, title: id, input_message_content: { message_text: '<b>x</b>', ...content } }) as const;
    await api.answerInlineQuery('q', [
      article('plain', {}),
      article('markdown', { parse_mode: 'MarkdownV2' }),
      article('entities', { entities: [{ type: 'bold', offset: 0, length: 1 }] }),
    ]);
    const results = calls[0]?.payload.results as Array<{ input_message_content: { parse_mode?: string } }>;
    expect(results.map((r) => r.input_message_content.parse_mode)).toEqual(['HTML', 'MarkdownV2', undefined]);
    expect(calls[0]?.payload.parse_mode).toBeUndefined();
  });
});

describe('escapeVariables', () => {
  it('escapes strings, leaves numbers and dates to Fluent and inserts raw(...) as is', () => {
    const date = new Date(0);
    expect(escapeVariables({ name: 'Budi <b>&', count: 1000, at: date, receipt: raw('<code>x</code>') })).toEqual({
      name: 'Budi &lt;b&gt;&amp;',
      count: 1000,
      at: date,
      receipt: '<code>x</code>',
    });
    expect(escapeVariables(undefined)).toBeUndefined();
  });
});
