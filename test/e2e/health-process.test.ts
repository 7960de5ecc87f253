/**
 * GET /health of the real process (`src/main.ts`, as `npm start` runs it): bound to loopback by
 * default, liveness only without the token, the counts with HEALTH_TOKEN as a bearer token.
 */
import { describe, expect } from 'vitest';
import { processTest } from './fixture.ts';

describe('GET /health of the bot process', () => {
  processTest(
    'listens on 127.0.0.1 by default; HEALTH_TOKEN unlocks the counts',
    async ({ lab }) => {
      const token = 'health-token-0123456789abcdef';
      const running = await lab.start({ HEALTH_TOKEN: token });
      const healthUrl = await lab.telegram.waitFor(() => /"healthUrl":"([^"]+)"/.exec(running.output)?.[1], {
        timeoutMs: 30_000,
        message: `the bot did not say where /health is:\n${running.output}`,
      });
      expect(new URL(healthUrl).hostname).toBe('127.0.0.1');

      expect(await (await fetch(healthUrl)).json()).toEqual({ ok: true });
      expect((await fetch(healthUrl, { headers: { authorization: 'Bearer wrong-token-0123456789abcdef' } })).status).toBe(401);
      const counts = await fetch(healthUrl, { headers: { authorization: `Bearer ${token}` } });
      expect(await counts.json()).toEqual({ ok: true, users: 0, openPurchases: 0, queuedNotices: 0 });
      expect(running.output).not.toContain(token);
    },
    60_000,
  );
});
