import { describe, expect, it } from 'vitest';
import { applyParseMode } from '../../tools/playground/formatting.ts';
import { BotApiError } from '../../tools/playground/params.ts';

/** The description of the BotApiError a call throws. */
function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BotApiError);
    return (error as BotApiError).description;
  }
  throw new Error('expected a BotApiError');
}

describe('HTML parse mode', () => {
  it('turns tags into entities with UTF-16 offsets and decodes character references', () => {
    expect(applyParseMode('💰 <b>Saldo</b>: <code>Rp 10.000</code> &lt;ok&gt; &amp; &#128512;', 'HTML')).toEqual({
      text: '💰 Saldo: Rp 10.000 <ok> & 😀',
      entities: [
        { type: 'bold', offset: 3, length: 5 },
        { type: 'code', offset: 10, length: 9 },
      ],
    });
    expect(
      applyParseMode(
        '<pre><code class="language-json">{}</code></pre><a href="https://x.id">x</a><tg-spoiler>s</tg-spoiler><blockquote expandable>q</blockquote>',
        'HTML',
      ).entities,
    ).toEqual([
      { type: 'pre', offset: 0, length: 2, language: 'json' },
      { type: 'text_link', offset: 2, length: 1, url: 'https://x.id' },
      { type: 'spoiler', offset: 3, length: 1 },
      { type: 'expandable_blockquote', offset: 4, length: 1 },
    ]);
  });

  it("rejects malformed markup with Telegram's messages", () => {
    expect(errorOf(() => applyParseMode('a <foo>b</foo>', 'HTML'))).toBe(
      `Bad Request: can't parse entities: Unsupported start tag "foo" at byte offset 2`,
    );
    expect(errorOf(() => applyParseMode('<b>a</i>', 'HTML'))).toBe(
      `Bad Request: can't parse entities: Unmatched end tag at byte offset 4, expected "</b>", found "</i>"`,
    );
    expect(errorOf(() => applyParseMode('<b>a', 'HTML'))).toBe(
      `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
    );
    expect(errorOf(() => applyParseMode('x', 'Fancy'))).toBe('Bad Request: unsupported parse_mode');
  });
});

describe('MarkdownV2 parse mode', () => {
  it('parses entities, escapes and links', () => {
    expect(applyParseMode('*Total:* _Rp_ 10\\.000 __u__ ~s~ ||x|| `a.b` [web](https://x.id/a\\)b)', 'MarkdownV2')).toEqual({
      text: 'Total: Rp 10.000 u s x a.b web',
      entities: [
        { type: 'bold', offset: 0, length: 6 },
        { type: 'italic', offset: 7, length: 2 },
        { type: 'underline', offset: 17, length: 1 },
        { type: 'strikethrough', offset: 19, length: 1 },
        { type: 'spoiler', offset: 21, length: 1 },
        { type: 'code', offset: 23, length: 3 },
        { type: 'text_link', offset: 27, length: 3, url: 'https://x.id/a)b' },
      ],
    });
    expect(applyParseMode('```js\nx = 1;\n```', 'MarkdownV2').entities).toEqual([{ type: 'pre', offset: 0, length: 7, language: 'js' }]);
    expect(applyParseMode('>kutipan\n>dua\nbiasa', 'MarkdownV2')).toEqual({
      text: 'kutipan\ndua\nbiasa',
      entities: [{ type: 'blockquote', offset: 0, length: 11 }],
    });
  });

  it('rejects unescaped reserved characters and unclosed entities', () => {
    expect(errorOf(() => applyParseMode('Harga: 5-10', 'MarkdownV2'))).toBe(
      `Bad Request: can't parse entities: Character '-' is reserved and must be escaped with the preceding '\\'`,
    );
    expect(errorOf(() => applyParseMode('*tebal', 'MarkdownV2'))).toBe(
      `Bad Request: can't parse entities: Can't find end of bold entity at byte offset 0`,
    );
  });
});

describe('Markdown (legacy) parse mode', () => {
  it('parses the four entities and rejects unclosed ones', () => {
    expect(applyParseMode('*a* _b_ `c` [d](https://x.id) 5-10.', 'Markdown')).toEqual({
      text: 'a b c d 5-10.',
      entities: [
        { type: 'bold', offset: 0, length: 1 },
        { type: 'italic', offset: 2, length: 1 },
        { type: 'code', offset: 4, length: 1 },
        { type: 'text_link', offset: 6, length: 1, url: 'https://x.id' },
      ],
    });
    expect(errorOf(() => applyParseMode('snake_case', 'Markdown'))).toBe(
      `Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 5`,
    );
  });
});
