import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

/*
 * A Telegram user id is an identifier, not an amount: every screen shows it as the digits to copy
 * into /saldodl (700000002), never grouped like money (700.000.002, or 700,000,002 in English).
 */

describe('user ids in downline screens are shown ungrouped (DOWNLINES=true)', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  /** Budi opens downline mode and an invite; resolves the link's /start payload. */
  const invite = async (budi: EmulatedUser): Promise<string> => {
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Bronze' });
    const made = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline undang'), textIncludes: '?start=dl_' });
    return /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec(made.text ?? '')?.[1] ?? '';
  };

  for (const languageCode of ['id', 'en']) {
    it(`in the join request, the decided request and the downline card (upline in ${languageCode})`, async () => {
      world = await startWorld({ jobs: true, env: { DOWNLINES: 'true' }, app: { outboxLimits: { perChatMs: 20 } } });
      const budi = await buyer(world, 'Budi', { languageCode });
      const payload = await invite(budi);
      const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
      expect(sari.id).toBeGreaterThan(999_999); // large enough that a grouped id would show a separator
      await world.telegram.waitForBotMessage(sari, { after: sari.send(`/start ${payload}`) });

      const request = await world.telegram.waitForBotMessage(budi, { textIncludes: 'Sari (ID' });
      expect(request.text).toContain(`Sari (ID ${sari.id})`);
      budi.tap(request, request.buttons[0]![0]!);
      const decided = await world.telegram.waitForBotMessage(budi, {
        where: (m) => m.messageId === request.messageId && m.buttons.length === 0,
      });
      expect(decided.text).toContain(`Sari (ID ${sari.id})`);

      const home = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: '(1)' });
      budi.tap(home, '1. Sari');
      const card = await world.telegram.waitForBotMessage(budi, {
        where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('👤'),
      });
      expect(card.text).toContain(`(ID ${sari.id})`);
      if (languageCode === 'id') {
        // The daily limit screen's example command names her by the id to type.
        budi.tap(card, '💳 Batas harian');
        const limit = await world.telegram.waitForBotMessage(budi, {
          where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('/downline limit'),
        });
        expect(limit.text).toContain(`/downline limit ${sari.id} 750000`);
      }
    });
  }
});
