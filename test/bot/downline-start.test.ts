import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { uplineAndDownline } from '../helpers/downline-world.ts';
import { invitePayload } from '../../src/services/downline-rules.ts';

/** A downline buys through their upline's account: /start and /help never send them to /connect (issue 31). */
describe("a downline's /start and /help (DOWNLINES=true)", () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('/start says whose downline they are and what to do, never "connect"; /help does not mark the reseller commands "connect first"', async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' } });
    const { telegram } = world;
    const { budi, sari } = await uplineAndDownline(world);

    const welcome = await telegram.waitForBotMessage(sari, { after: sari.send('/start') });
    expect(welcome.text).toContain('Anda downline dari Budi');
    expect(welcome.text).toContain('/saldo');
    expect(welcome.text).not.toMatch(/connect|hubungkan/i);

    const help = await telegram.waitForBotMessage(sari, { after: sari.send('/bantuan') });
    const reseller = (help.text ?? '').split('\n').filter((line) => /^\/(balance|prices|buy|history|report)\b/.test(line));
    expect(reseller).toHaveLength(5);
    expect(reseller.filter((line) => line.includes('(hubungkan dulu)'))).toEqual([]);

    // In English too.
    const made = await world.app.services.downlines.createInvite(budi.id);
    if (!('invite' in made)) throw new Error(`no invite: ${made.refused}`);
    const tono = telegram.createUser({ firstName: 'Tono', languageCode: 'en' });
    await telegram.waitForBotMessage(tono, {
      after: tono.send(`/start ${invitePayload(budi.id, made.invite.id)}`),
      textIncludes: 'You are now a downline',
    });
    const english = await telegram.waitForBotMessage(tono, { after: tono.send('/start') });
    expect(english.text).toContain('You are a downline of Budi');
    expect(english.text).not.toMatch(/connect/i);
  });
});
