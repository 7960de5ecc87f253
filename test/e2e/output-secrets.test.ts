/**
 * What the real process (`src/main.ts`, as `npm start` runs it) prints when Telegram becomes
 * unreachable: the polling errors are reported, and the bot token appears nowhere in the output.
 */
import { describe, expect } from 'vitest';
import { testEncryptionKey } from '../helpers/app.ts';
import { processTest, until } from './fixture.ts';

describe('process output never contains the bot token', () => {
  processTest(
    'Telegram unreachable while polling: the errors are printed, the token (and its secret part) is not',
    async ({ lab }) => {
      const token = lab.telegram.token;
      const secretPart = token.slice(token.indexOf(':') + 1);
      expect(secretPart.length).toBeGreaterThanOrEqual(20);
      const running = await lab.start();
      await lab.telegram.waitFor(() => running.output.includes('long polling'), {
        timeoutMs: 30_000,
        message: `the bot did not start polling:\n${running.output}`,
      });

      // Telegram goes away: every getUpdates now fails to connect.
      const before = running.output.length;
      await lab.closeTelegram();
      const after = () => running.output.slice(before);
      await until(
        () =>
          after()
            .split('\n')
            .filter((line) => /updates/i.test(line) && /error|fail/i.test(line)).length >= 2,
        30_000,
        () => `the bot never reported the polling errors:\n${after()}`,
      );

      const output = running.output;
      expect(output).not.toContain(token);
      expect(output).not.toContain(secretPart);
      expect(output).not.toContain(encodeURIComponent(token));
      expect(output).not.toContain(testEncryptionKey);
    },
    90_000,
  );
});
