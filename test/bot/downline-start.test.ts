import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';

/** A downline buys through their upline's account: /start and /help never send them to /connect (issue 31). */
describe("a downline's /start and /help (DOWNLINES=true)", () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('/start says whose downline they are and what to do, never "connect"; /help does not mark the reseller commands "connect first"', async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' } });
    const { telegram } = world;
    const budi = await buyer(world);
    await telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Level' });
    await telegram.waitForBotMessage(budi, { after: budi.send('/downline auto nyala'), textIncludes: 'nyala' });
    const made = await telegram.waitForBotMessage(budi, { after: budi.send('/downline undang'), textIncludes: 'Link undangan baru' });
    const payload = /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec(made.text ?? '')?.[1] ?? '';
    const sari = telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    await telegram.waitForBotMessage(sari, { after: sari.send(`/start ${payload}`), textIncludes: 'Anda sekarang downline' });

    const welcome = await telegram.waitForBotMessage(sari, { after: sari.send('/start') });
    expect(welcome.text).toContain('Anda downline dari Budi');
    expect(welcome.text).toContain('/saldo');
    expect(welcome.text).not.toMatch(/connect|hubungkan/i);

    const help = await telegram.waitForBotMessage(sari, { after: sari.send('/bantuan') });
    const reseller = (help.text ?? '').split('\n').filter((line) => /^\/(balance|prices|buy|history|report)\b/.test(line));
    expect(reseller).toHaveLength(5);
    expect(reseller.filter((line) => line.includes('(hubungkan dulu)'))).toEqual([]);

    // In English too.
    const tono = telegram.createUser({ firstName: 'Tono', languageCode: 'en' });
    await telegram.waitForBotMessage(tono, { after: tono.send(`/start ${payload}`), textIncludes: 'You are now a downline' });
    const english = await telegram.waitForBotMessage(tono, { after: tono.send('/start') });
    expect(english.text).toContain('You are a downline of Budi');
    expect(english.text).not.toMatch(/connect/i);
  });
});
