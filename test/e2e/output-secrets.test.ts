/**
 * What the real process (`src/main.ts`, as `npm start` runs it) prints when Telegram becomes
 * unreachable: the polling errors are reported, and the bot token appears nowhere in the output.
 */
import { describe, expect } from 'vitest';
import { testEncryptionKey, type TestWorld } from '../helpers/app.ts';
import { connectReseller } from '../helpers/connect.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
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

  processTest(
    'a run at LOG_LEVEL=debug (connect, balance): update and provider-call lines, and no key, sign or token',
    async ({ lab }) => {
      const running = await lab.start({ LOG_LEVEL: 'debug' });
      const budi = lab.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
      // The connect helper needs only the emulator of a world.
      await connectReseller({ telegram: lab.telegram } as unknown as TestWorld, budi);
      await lab.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Rp' });
      await until(
        () => running.output.includes('"msg":"provider call"') && running.output.includes('"handler":"/saldo"'),
        10_000,
        () => `no provider-call or update line:\n${running.output}`,
      );
      const signs = lab.sandbox.received.flatMap((request) => {
        const body = request.body as { sign?: unknown } | undefined;
        return typeof body?.sign === 'string' ? [body.sign] : [];
      });
      expect(signs.length).toBeGreaterThan(0);
      const token = lab.telegram.token;
      const output = running.output;
      for (const secret of [
        ...signs,
        resellerDemoAccounts.main.apiKey,
        token,
        token.slice(token.indexOf(':') + 1),
        testEncryptionKey,
        Buffer.from(testEncryptionKey, 'base64').toString('hex'),
      ]) {
        expect(output).not.toContain(secret);
      }
    },
    60_000,
  );
});
