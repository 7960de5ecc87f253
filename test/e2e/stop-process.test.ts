/**
 * SIGTERM (systemd, docker stop) and SIGINT (Ctrl+C) stop the bot process gracefully at any
 * instant of its life: it says "stopped", releases the data directory and exits 0.
 */
import { describe, expect } from 'vitest';
import { loopbackEnv } from '../helpers/app.ts';
import { spawnBot } from '../helpers/bot-process.ts';
import { processTest } from './fixture.ts';

describe('stopping the bot process', () => {
  processTest(
    'a SIGTERM the moment it says it is ready (while it starts receiving updates) still stops it gracefully',
    async ({ lab }) => {
      const bot = spawnBot({ ...loopbackEnv(lab.telegram, lab.sandbox, lab.dataDir), LOG_LEVEL: 'info', PORT: '0' }, lab.dataDir);
      await bot.waitForOutput((output) => output.includes('bot ready'), 30_000);
      await bot.stop('SIGTERM');
      expect(await bot.exited, bot.output).toBe(0);
      expect(bot.output).toContain('"msg":"stopped"');
      // The data directory was released: the next start takes it at once.
      const next = await lab.start();
      await next.stop('SIGINT');
      expect(await next.exited, next.output).toBe(0);
      expect(next.output).toContain('"msg":"stopped"');
    },
    60_000,
  );
});
