import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buyer } from '../helpers/buy.ts';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { commands } from '../../src/bot/commands.ts';

/** The line of the help text that names `/command` (not a longer command that starts the same). */
function lineOf(text: string, command: string): string | undefined {
  const pattern = new RegExp(`/${command}(?![a-z])`);
  return text.split('\n').find((line) => pattern.test(line));
}

describe('/help lists every command', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  for (const { languageCode, command, mark, headings } of [
    {
      languageCode: 'id',
      command: '/bantuan',
      mark: '(hubungkan dulu)',
      headings: ['Reseller', 'Marketplace', 'Toko game', 'Grup', 'Pengaturan'],
    },
    {
      languageCode: 'en',
      command: '/help',
      mark: '(connect first)',
      headings: ['Reseller', 'Marketplace', 'Game shop', 'Groups', 'Settings'],
    },
  ]) {
    it(`names every command and alias, grouped, in ${languageCode}, marking the services not connected`, async () => {
      const budi = await buyer(world, 'Budi', { languageCode }); // reseller connected, nothing else
      const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send(command) });
      const text = reply.text ?? '';
      for (const heading of headings) expect(text).toContain(heading);
      for (const { name, aliases } of commands) {
        const line = lineOf(text, name);
        expect(line, `/${name} is in /help`).toBeDefined();
        for (const alias of aliases) expect(line, `/${alias} is on the line of /${name}`).toMatch(new RegExp(`/${alias}(?![a-z])`));
      }
      for (const name of ['account', 'items', 'verify', 'games', 'order', 'orders']) {
        expect(lineOf(text, name), `/${name} is marked`).toContain(mark);
      }
      for (const name of ['balance', 'prices', 'buy', 'status', 'history', 'export', 'report', 'alert', 'connect', 'language']) {
        expect(lineOf(text, name), `/${name} is not marked`).not.toContain(mark);
      }
      // Inline mode, with the bot's own username to type.
      expect(text).toContain(`@${world.telegram.botInfo.username} tsel 10`);
    });
  }
});
