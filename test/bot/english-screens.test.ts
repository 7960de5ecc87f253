/**
 * The chat screens an English-speaking reseller sees carry no Indonesian: /history lines and the
 * PIN lockout tell the time as `14:05`, and a product the provider marks `gangguan` is shown as
 * out of service; a user who never chose a language gets the settlement notice in their Telegram
 * app's language. The pure renderers (receipt, notices, digest) are covered in
 * test/text/english-output.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { recheck, startSettlementWorld, testClock } from '../helpers/settlement.ts';
import { expectEnglish } from '../helpers/english.ts';

describe('English screens', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('/history lines show the time as 14:05', async () => {
    const jane = await seedConnectedUser(world, 'Jane', { languageCode: 'en' });
    await seedPurchase(world, jane);
    const history = await world.telegram.waitForBotMessage(jane, { after: jane.send('/history'), textIncludes: 'Transaction history' });
    expect(history.text).toMatch(/Pending · \d{2} \w{3} \d{4} \d{2}:\d{2} WIB/);
    expectEnglish(history.text);
  });

  it('the PIN lockout tells until when as 14:05', async () => {
    const jane = await seedConnectedUser(world, 'Jane', { languageCode: 'en' });
    await world.app.db.users.upsert({ id: jane.id, firstName: 'Jane' });
    await world.app.services.pin.set(jane.id, '482915');
    for (let i = 0; i < 5; i++) await world.app.services.pin.verify(jane.id, '000111');
    const locked = await world.telegram.waitForBotMessage(jane, { after: jane.send('/pin'), textIncludes: '🔒' });
    expect(locked.text).toMatch(/locked until \d{2} \w{3} \d{4} \d{2}:\d{2} WIB/);
    expectEnglish(locked.text);
  });

  it('a product the provider marks gangguan is out of service in the price list and in a quick buy', async () => {
    const jane = await seedConnectedUser(world, 'Jane', { languageCode: 'en' });
    const list = await world.telegram.waitForBotMessage(jane, { after: jane.send('/prices pulsa tsel') });
    expect(list.text).toContain('Telkomsel 150.000 — unavailable (out of service)');
    expectEnglish(list.text);
    const quick = await world.telegram.waitForBotMessage(jane, { after: jane.send('TSEL150.081234567890') });
    expect(quick.text).toContain('out of service');
    expectEnglish(quick.text);
  });
});

describe('messages the bot sends on its own, to a user whose Telegram is in English', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.stop();
  });

  it('a user who never chose a language gets the settlement notice in the language the bot speaks to them in chat', async () => {
    const clock = testClock();
    world = await startSettlementWorld(clock, { sandbox: { reseller: { settleAfterChecks: 1_000_000, settleAfterMs: 3_600_000 } } });
    const jane = await seedConnectedUser(world, 'Jane', { languageCode: 'en' });
    await world.telegram.waitForBotMessage(jane, { after: jane.send('/start') });
    expect((await world.app.db.users.get(jane.id))?.locale).toBeUndefined();

    const refId = await seedPurchase(world, jane);
    world.sandbox.reseller.settle(refId, 'Sukses');
    await recheck(world, clock);
    await world.app.outbox.drain();
    const notice = await world.telegram.waitForBotMessage(jane, { textIncludes: refId });
    expect(notice.text).toContain('Transaction succeeded');
    expect(notice.text).toMatch(/\d{2}:\d{2} WIB/);
    expectEnglish(notice.text);
  });
});
