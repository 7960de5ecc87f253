import { describe, expect, it } from 'vitest';
import { parseParams } from '../../tools/playground/params.ts';

describe('parseParams', () => {
  it('reads curl/browser-style multipart with files and JSON-valued fields', () => {
    const boundary = 'XyZ';
    const body = Buffer.from(
      [
        `--${boundary}`,
        'Content-Disposition: form-data; name="chat_id"',
        '',
        '42',
        `--${boundary}`,
        'Content-Disposition: form-data; name="reply_markup"',
        '',
        '{"inline_keyboard":[[{"text":"a","callback_data":"b"}]]}',
        `--${boundary}`,
        'Content-Disposition: form-data; name="photo"; filename="qr.png"',
        'Content-Type: image/png',
        '',
        'PNGDATA',
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    );
    const { params, files } = parseParams(`multipart/form-data; boundary=${boundary}`, body, new URLSearchParams());
    expect(params).toEqual({ chat_id: 42, reply_markup: { inline_keyboard: [[{ text: 'a', callback_data: 'b' }]] } });
    expect(files.get('photo')).toMatchObject({ filename: 'qr.png', contentType: 'image/png' });
    expect(files.get('photo')?.bytes.toString()).toBe('PNGDATA');
  });

  it('merges the query string, keeps @usernames and text that looks like JSON', () => {
    const { params } = parseParams(
      'application/json',
      Buffer.from(JSON.stringify({ text: '[1,2]', disable_notification: 'true' })),
      new URLSearchParams({ chat_id: '@kios_grup' }),
    );
    expect(params).toEqual({ chat_id: '@kios_grup', text: '[1,2]', disable_notification: true });
  });

  it("answers Telegram's 400 for a broken JSON body", () => {
    expect(() => parseParams('application/json', Buffer.from('{oops'), new URLSearchParams())).toThrow(
      "can't parse JSON encoded request parameters",
    );
  });
});
