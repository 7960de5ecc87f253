import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { connectReseller, connectService } from '../helpers/connect.ts';
import { eventually } from '../helpers/buy.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { marketplaceDemoAccounts } from '../../tools/sandbox/marketplace.ts';
import { gameshopDemoKeys } from '../../tools/sandbox/gameshop.ts';
import { signBalance } from '../../src/providers/reseller/sign.ts';
import { connectData, disconnectData } from '../../src/bot/callback-data/connect.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

const main = resellerDemoAccounts.main;
const pickReseller = connectData.pack({ action: 'pick', service: 'reseller' });

describe('/connect and /disconnect', () => {
  let world: TestWorld;
  let budi: EmulatedUser;
  beforeEach(async () => {
    world = await startWorld();
    budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
  });
  afterEach(async () => {
    await world.stop();
  });

  /** /connect, tap the reseller button, and the API ID prompt. */
  async function startResellerConnect(user: EmulatedUser = budi): Promise<EmulatedMessage> {
    const picker = await world.telegram.waitForBotMessage(user, { after: user.send('/connect') });
    expect(picker.buttons.flat()).toEqual(['Top-up reseller', 'Marketplace', 'Toko game', '❌ Batal']);
    user.tap(picker, 'Top-up reseller');
    return world.telegram.waitForBotMessage(user, { after: picker, textIncludes: 'API ID' });
  }

  it('connects a reseller account: the key message is deleted, the label is shown, the balance works', async () => {
    const prompt = await startResellerConnect();
    expect(prompt.buttons.flat()).toEqual(['❌ Batal']);
    const idMessage = budi.send(main.apiId);
    const keyPrompt = await world.telegram.waitForBotMessage(budi, { after: idMessage, textIncludes: 'API key' });
    const keyMessage = budi.send(main.apiKey);
    const done = await world.telegram.waitForBotMessage(budi, { after: keyPrompt, textIncludes: '✅' });

    expect(keyMessage.deleted).toBe(true);
    expect(idMessage.deleted).toBe(true);
    expect(done.text).toContain('Top-up reseller terhubung: DEMO…LER');
    expect(done.text).toContain('/saldo');
    expect(done.text).toContain('/harga');
    expect(await world.app.services.credentials.load(budi.id, 'reseller')).toEqual({ apiId: main.apiId, apiKey: main.apiKey });
    // The conversation ended with the save: no state (and so no key) is kept for this chat.
    await eventually(async () => (await world.app.db.conversations.read(`${budi.id}:${budi.id}`)) === undefined);

    const balance = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(balance.text).toContain('Rp 1.000.000');
  });

  it('keeps no plain secret in the data files or the logs', async () => {
    // A refused key first, then the right one after "try again".
    await startResellerConnect();
    await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId), textIncludes: 'API key' });
    const wrongKey = 'wrong-key-0123456789abcdef';
    const refused = await world.telegram.waitForBotMessage(budi, { after: budi.send(wrongKey), textIncludes: '❌' });
    budi.tap(refused, '🔁 Coba lagi');
    await world.telegram.waitForBotMessage(budi, { after: refused, textIncludes: 'API ID' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId), textIncludes: 'API key' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiKey), textIncludes: '✅' });

    const files = await world.storedData();
    // What was read holds the connected account (its label), and none of the secrets.
    expect(files).toContain('DEMO…LER');
    const logs = world.logs.join('\n');
    for (const secret of [main.apiKey, signBalance(main.apiId, main.apiKey), wrongKey, signBalance(main.apiId, wrongKey)]) {
      expect(files).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    expect(logs).toContain('service connected');
  });

  it('refuses a wrong key with a clear message, stores nothing and offers to try again', async () => {
    await startResellerConnect();
    await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId), textIncludes: 'API key' });
    const keyMessage = budi.send('not-the-right-key-123');
    const refused = await world.telegram.waitForBotMessage(budi, { after: keyMessage, textIncludes: '❌' });
    expect(refused.text).toContain('menolak kredensial');
    expect(refused.text).toContain('Tidak ada yang disimpan');
    expect(keyMessage.deleted).toBe(true);
    expect(await world.app.services.credentials.has(budi.id, 'reseller')).toBe(false);

    budi.tap(refused, '🔁 Coba lagi');
    await world.telegram.waitForBotMessage(budi, { after: refused, textIncludes: 'API ID' });
  });

  it('tells which server IP to whitelist when the provider blocks it', async () => {
    await startResellerConnect();
    const blocked = resellerDemoAccounts.blocked;
    await world.telegram.waitForBotMessage(budi, { after: budi.send(blocked.apiId), textIncludes: 'API key' });
    const answer = await world.telegram.waitForBotMessage(budi, { after: budi.send(blocked.apiKey), textIncludes: '❌' });
    expect(answer.text).toContain('203.0.113.7');
    expect(answer.text).toContain('whitelist');
    expect(await world.app.services.credentials.has(budi.id, 'reseller')).toBe(false);
  });

  it('connects the marketplace and the game shop with their demo keys', async () => {
    const market = await connectService(world, budi, 'marketplace', { apiKey: marketplaceDemoAccounts.main.apiKey });
    expect(market.text).toContain(`Marketplace terhubung: ${marketplaceDemoAccounts.main.username}`);
    expect(market.text).toContain('/produk');
    const shop = await connectService(world, budi, 'gameshop', { apiKey: gameshopDemoKeys.main });
    expect(shop.text).toMatch(/Toko game terhubung: \d+ games/);
    expect(shop.text).toContain('/pesan');
    expect((await world.app.services.credentials.connected(budi.id)).sort()).toEqual(['gameshop', 'marketplace']);
    expect(await world.app.services.credentials.load(budi.id, 'gameshop')).toEqual({ apiKey: gameshopDemoKeys.main });
    const keyMessages = world.telegram
      .messages(budi)
      .filter((m) => !m.fromBot && (m.text === gameshopDemoKeys.main || m.text === marketplaceDemoAccounts.main.apiKey));
    expect(keyMessages.map((m) => m.deleted)).toEqual([true, true]);
  });

  it('says an already connected service is connected and replaces it only when asked', async () => {
    await world.app.services.credentials.verifyAndSave(budi.id, 'reseller', { apiId: main.apiId, apiKey: main.apiKey });
    const picker = await world.telegram.waitForBotMessage(budi, { after: budi.send('/connect') });
    budi.tap(picker, pickReseller);
    await world.telegram.waitFor(() => picker.text?.includes('sudah terhubung'));
    expect(picker.text).toContain('DEMO…LER');
    expect(picker.buttons.flat()).toEqual(['🔁 Ganti kredensial', '❌ Batal']);

    budi.tap(picker, '🔁 Ganti kredensial');
    await world.telegram.waitForBotMessage(budi, { after: picker, textIncludes: 'API ID' });
    const second = resellerDemoAccounts.second;
    await world.telegram.waitForBotMessage(budi, { after: budi.send(second.apiId), textIncludes: 'API key' });
    const done = await world.telegram.waitForBotMessage(budi, { after: budi.send(second.apiKey), textIncludes: '✅' });
    expect(done.text).toContain('DEMO…R-2');
    const balance = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(balance.text).toContain('Rp 250.000');
  });

  it('replaces a connected account through the connect helper', async () => {
    await world.app.services.credentials.verifyAndSave(budi.id, 'reseller', { apiId: main.apiId, apiKey: main.apiKey });
    const done = await connectReseller(world, budi, resellerDemoAccounts.second);
    expect(done.text).toContain('DEMO…R-2');
    expect((await world.app.services.credentials.load(budi.id, 'reseller'))?.apiId).toBe(resellerDemoAccounts.second.apiId);
  });

  it('refuses /connect in a group', async () => {
    const group = world.telegram.createGroup({ title: 'Toko Budi', members: [budi] });
    const sent = budi.send('/connect', { chat: group });
    const reply = await world.telegram.waitForBotMessage(group, { after: sent });
    expect(reply.text).toContain('chat pribadi');
    expect(reply.buttons).toEqual([]);
  });

  it('/cancel in the middle stores nothing and ends the conversation', async () => {
    await startResellerConnect();
    await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId), textIncludes: 'API key' });
    const cancelled = await world.telegram.waitForBotMessage(budi, { after: budi.send('/batal') });
    expect(cancelled.text).toContain('Dibatalkan');
    // The conversation is over: the key is no longer taken as one.
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiKey) });
    expect(reply.text).not.toContain('✅');
    expect(await world.app.services.credentials.has(budi.id, 'reseller')).toBe(false);
  });

  it('a prompt loses its Cancel button once answered', async () => {
    const idPrompt = await startResellerConnect();
    const keyPrompt = await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId), textIncludes: 'API key' });
    await world.telegram.waitFor(() => idPrompt.buttons.length === 0);
    await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiKey), textIncludes: '✅' });
    await world.telegram.waitFor(() => keyPrompt.buttons.length === 0);
  });

  it('a stale Cancel on an old prompt says the button is no longer valid and changes nothing', async () => {
    const prompt = await startResellerConnect();
    // Another command ends the flow (and says so); the account gets connected afterwards.
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/start'), textIncludes: 'Halo' });
    await world.app.services.credentials.verifyAndSave(budi.id, 'reseller', { apiId: main.apiId, apiKey: main.apiKey });
    const before = world.telegram.botMessages(budi).length;

    const query = budi.tap(prompt, '❌ Batal');
    const answer = await world.telegram.waitForCallbackAnswer(query);
    expect(answer.text).toContain('tidak berlaku');
    // Nothing else is said (no "Dibatalkan") and the account stays connected.
    const probe = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(probe.text).toContain('Rp 1.000.000');
    expect(
      world.telegram
        .botMessages(budi)
        .slice(before)
        .map((m) => m.text),
    ).toEqual([probe.text]);
    expect(await world.app.services.credentials.has(budi.id, 'reseller')).toBe(true);
  });

  it('the Cancel button stops the flow too', async () => {
    const prompt = await startResellerConnect();
    budi.tap(prompt, '❌ Batal');
    const cancelled = await world.telegram.waitForBotMessage(budi, { after: prompt, textIncludes: 'Dibatalkan' });
    expect(cancelled.text).toContain('Tidak ada yang disimpan');
    await world.telegram.waitFor(() => prompt.buttons.length === 0);
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId) });
    expect(reply.text).not.toContain('API key');
  });

  it('resumes after a restart: the next message is the API ID', async () => {
    await startResellerConnect();
    // The prompt is sent before the conversation state is stored; restart once it is.
    await eventually(async () => (await world.app.db.conversations.read(`${budi.id}:${budi.id}`)) !== undefined);
    await world.restart();
    const keyPrompt = await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId), textIncludes: 'API key' });
    expect(keyPrompt.text).toContain('Langkah 2/2');
    const done = await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiKey), textIncludes: '✅' });
    expect(done.text).toContain('DEMO…LER');
    expect(await world.app.services.credentials.has(budi.id, 'reseller')).toBe(true);
  });

  it('asks the user to delete the key message when Telegram refuses to delete it', async () => {
    await startResellerConnect();
    await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId), textIncludes: 'API key' });
    world.telegram.injectError({ method: 'deleteMessage', errorCode: 400, description: "Bad Request: message can't be deleted" });
    const keyMessage = budi.send(main.apiKey);
    const warning = await world.telegram.waitForBotMessage(budi, { after: keyMessage, textIncludes: '⚠️' });
    expect(world.logs.filter((line) => line.includes('could not delete a message that carried a secret'))).toHaveLength(1);
    expect(warning.text).toContain('Hapus pesan itu sendiri');
    await world.telegram.waitForBotMessage(budi, { after: keyMessage, textIncludes: '✅' });
    expect(keyMessage.deleted).toBe(false);
    expect(await world.app.services.credentials.has(budi.id, 'reseller')).toBe(true);
  });

  it('a command in the middle ends the flow, says so, and runs', async () => {
    await startResellerConnect();
    const ended = await world.telegram.waitForBotMessage(budi, { after: budi.send('/pesanan') });
    expect(ended.text).toContain('Menghubungkan akun dibatalkan');
    const reply = await world.telegram.waitForBotMessage(budi, { after: ended });
    expect(reply.text).toContain('Belum ada pesanan game');
    const next = await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId) });
    expect(next.text).not.toContain('API key');
  });

  it('an information command in the middle is answered, the prompt comes again, and the flow goes on', async () => {
    const prompt = await startResellerConnect();
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(reply.text).toContain('belum terhubung');
    const again = await world.telegram.waitForBotMessage(budi, { after: reply });
    expect(again.text).toBe(prompt.text);
    expect(again.buttons).toEqual(['❌ Batal'].map((b) => [b]));
    await world.telegram.waitForBotMessage(budi, { after: budi.send(main.apiId), textIncludes: 'API key' });
  });

  it('/disconnect says when nothing is connected', async () => {
    const none = await world.telegram.waitForBotMessage(budi, { after: budi.send('/disconnect') });
    expect(none.text).toContain('/connect');
    expect(none.buttons).toEqual([]);
  });

  it('/disconnect removes the chosen service after a confirmation', async () => {
    await connectReseller(world, budi);
    await world.app.services.credentials.verifyAndSave(budi.id, 'marketplace', { apiKey: marketplaceDemoAccounts.main.apiKey });
    const picker = await world.telegram.waitForBotMessage(budi, { after: budi.send('/putuskan') });
    expect(picker.buttons.flat()).toEqual([
      'Top-up reseller (DEMO…LER)',
      `Marketplace (${marketplaceDemoAccounts.main.username})`,
      '❌ Batal',
    ]);
    budi.tap(picker, disconnectData.pack({ action: 'pick', service: 'reseller' }));
    await world.telegram.waitFor(() => picker.text?.includes('Putuskan Top-up reseller'));
    expect(await world.app.services.credentials.has(budi.id, 'reseller')).toBe(true);
    budi.tap(picker, '✅ Ya, putuskan');
    await world.telegram.waitFor(() => picker.text?.includes('diputuskan'));
    expect(await world.app.services.credentials.connected(budi.id)).toEqual(['marketplace']);

    const balance = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(balance.text).toContain('belum terhubung');
  });

  it('/disconnect keeps the service when the user cancels', async () => {
    await connectReseller(world, budi);
    const picker = await world.telegram.waitForBotMessage(budi, { after: budi.send('/disconnect') });
    budi.tap(picker, 'Top-up reseller (DEMO…LER)');
    await world.telegram.waitFor(() => picker.buttons.flat().includes('❌ Batal') && picker.text?.includes('Putuskan'));
    budi.tap(picker, '❌ Batal');
    await world.telegram.waitFor(() => picker.text?.includes('tetap terhubung'));
    expect(await world.app.services.credentials.has(budi.id, 'reseller')).toBe(true);
  });
});
