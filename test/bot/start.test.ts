import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buyer, sandboxTransactions, waitForSummary } from '../helpers/buy.ts';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { advanceWallClock } from '../helpers/wall-clock.ts';
import { connectData } from '../../src/bot/callback-data/connect.ts';

describe('start, help and language', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('greets a new user in Indonesian and says to connect first', async () => {
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const sent = budi.send('/start');
    const reply = await world.telegram.waitForBotMessage(budi, { after: sent });
    expect(reply.text).toContain('Halo Budi');
    expect(reply.text).toContain('/connect');
    expect(await world.app.db.users.get(budi.id)).toMatchObject({ firstName: 'Budi', active: true });
  });

  it('speaks English to an English Telegram client', async () => {
    const jane = world.telegram.createUser({ firstName: 'Jane', languageCode: 'en-GB' });
    const reply = await world.telegram.waitForBotMessage(jane, { after: jane.send('/help') });
    expect(reply.text).toContain('kiosbot commands');
    expect(reply.text).toContain('/balance');
  });

  it('switches language with /bahasa and remembers it across a restart', async () => {
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const picker = await world.telegram.waitForBotMessage(budi, { after: budi.send('/bahasa') });
    budi.tap(picker, '🇬🇧 English');
    await world.telegram.waitFor(() => picker.text?.includes('English') === true);
    await world.restart();
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    expect(reply.text).toContain('Hello Budi');
  });

  it('answers unknown text and stray buttons instead of staying silent', async () => {
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('halo bot, apa kabar?') });
    expect(reply.text).toContain('/help');
  });
});

describe('a secret typed after its step timed out', () => {
  it('is deleted and the user is told why', async () => {
    const world = await startWorld();
    try {
      const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
      const picker = await world.telegram.waitForBotMessage(budi, { after: budi.send('/connect'), where: (m) => m.buttons.length > 0 });
      budi.tap(picker, connectData.pack({ action: 'pick', service: 'marketplace' }));
      await world.telegram.waitForBotMessage(budi, { after: picker });
      await world.idle();
      advanceWallClock(16 * 60_000); // the step times out (15 minutes)
      const sent = budi.send('mk_demo_5c8e2f1a9b7d4036');
      const reply = await world.telegram.waitForBotMessage(budi, { after: sent, textIncludes: 'saya hapus' });
      expect(reply.text).toContain('/connect');
      expect(sent.deleted).toBe(true);
    } finally {
      await world.stop();
    }
  });
});

describe('an answer typed after its conversation timed out', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('says which step ended and how to start again, and buys nothing', async () => {
    world = await startWorld();
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli'), textIncludes: 'kode produk' });
    await world.idle();
    advanceWallClock(16 * 60_000); // the step times out (15 minutes)
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('tsel10') });
    expect(reply.text).toContain('sudah berakhir');
    expect(reply.text).toContain('Mulai lagi dengan /beli');
    expect(reply.text).not.toContain('nomor HP');
  });

  it('leaves a confirm button of the timed-out summary without effect', async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
    const budi = await buyer(world, 'Jane', { languageCode: 'en' });
    const summary = await waitForSummary(world, budi, budi.send('/buy TSEL10 081234567890'));
    await world.idle();
    advanceWallClock(16 * 60_000); // the summary waited too long (15 minutes)
    const answer = await world.telegram.waitForCallbackAnswer(budi.tap(summary, '✅ Confirm'));
    expect(answer.text).toContain('no longer valid');
    await world.telegram.waitFor(() => summary.buttons.length === 0);
    const late = await world.telegram.waitForBotMessage(budi, { after: budi.send('hello?') });
    expect(late.text).toContain('I did not understand'); // the expiry was told once, on the button
    expect(sandboxTransactions(world)).toHaveLength(0);
  });
});

describe('order of updates', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it("answers one chat's messages in the order sent, while other chats go on meanwhile", async () => {
    world = await startWorld();
    const budi = await buyer(world);
    const siti = world.telegram.createUser({ firstName: 'Siti', languageCode: 'id' });
    world.sandbox.inject({ service: 'reseller', path: '/cek-saldo', fault: { kind: 'latency', ms: 700 } });
    const slow = budi.send('/saldo');
    const quick = budi.send('halo');
    const other = siti.send('/start');
    const balance = await world.telegram.waitForBotMessage(budi, { after: slow, textIncludes: 'Rp' });
    const chatter = await world.telegram.waitForBotMessage(budi, { after: quick, textIncludes: '/help' });
    const welcome = await world.telegram.waitForBotMessage(siti, { after: other });
    expect(chatter.messageId).toBeGreaterThan(balance.messageId);
    // Siti was not held up behind Budi's slow provider call.
    expect(welcome.sentAt).toBeLessThan(balance.sentAt);
  });
});
