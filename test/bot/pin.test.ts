import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { isGuessablePin } from '../../src/bot/conversations/pin.ts';

const pin = '482915';
const newPin = '7305';

describe('isGuessablePin', () => {
  it('flags repeated digits and runs, nothing else', () => {
    for (const weak of ['0000', '1111', '1234', '123456', '9876', '654321']) expect(isGuessablePin(weak)).toBe(true);
    for (const fine of ['482915', '7305', '1235', '0012']) expect(isGuessablePin(fine)).toBe(false);
  });
});

describe('/pin', () => {
  let world: TestWorld;
  let budi: EmulatedUser;
  beforeEach(async () => {
    world = await startWorld();
    budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
  });
  afterEach(async () => {
    await world.stop();
  });

  /** Sends text and waits for the bot's next message containing `textIncludes`. */
  const say = (text: string, textIncludes: string | RegExp): Promise<EmulatedMessage> =>
    world.telegram.waitForBotMessage(budi, { after: budi.send(text), textIncludes });

  /** Budi as a known user with `pin` set (the bot has not seen him yet). */
  async function withPin(): Promise<void> {
    await world.app.db.users.upsert({ id: budi.id, firstName: 'Budi' });
    await world.app.services.pin.set(budi.id, pin);
  }

  /** Opens /pin with a PIN already set, taps `button`, and waits for the current-PIN prompt. */
  async function openMenu(button: string): Promise<void> {
    await withPin();
    const menu = await say('/pin', 'PIN transaksi sedang aktif');
    expect(menu.buttons.flat()).toEqual(['🔁 Ganti PIN', '🗑 Hapus PIN', '❌ Batal']);
    budi.tap(menu, button);
    await world.telegram.waitForBotMessage(budi, { after: menu, textIncludes: 'PIN Anda yang sekarang' });
  }

  it('sets a PIN: both messages deleted, only a hash stored', async () => {
    const intro = await say('/pin', 'belum punya PIN');
    await world.telegram.waitForBotMessage(budi, { after: intro, textIncludes: 'PIN baru (4–6 angka)' });
    const first = budi.send(pin);
    await world.telegram.waitForBotMessage(budi, { after: first, textIncludes: 'sekali lagi' });
    const second = budi.send(pin);
    await world.telegram.waitForBotMessage(budi, { after: second, textIncludes: '✅ PIN disimpan' });

    expect(first.deleted).toBe(true);
    expect(second.deleted).toBe(true);
    const stored = (await world.app.db.users.get(budi.id))?.pin;
    expect(stored?.hash).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(JSON.stringify(stored)).not.toContain(pin);
    const data = await world.storedData();
    // What was read holds the user's record (its hash), and nowhere the PIN.
    expect(data).toContain(stored!.hash);
    expect(data).not.toContain(pin);
    expect(world.logs.join('\n')).not.toContain(pin);
    expect(await world.app.services.pin.verify(budi.id, pin)).toEqual({ ok: true });
  });

  it('asks the user to delete a PIN message Telegram refuses to delete, once', async () => {
    const intro = await say('/pin', 'belum punya PIN');
    await world.telegram.waitForBotMessage(budi, { after: intro, textIncludes: 'PIN baru' });
    world.telegram.injectError({ method: 'deleteMessage', errorCode: 400, description: "Bad Request: message can't be deleted" });
    const first = budi.send(pin);
    await world.telegram.waitForBotMessage(budi, { after: first, textIncludes: 'sekali lagi' });
    const second = budi.send(pin);
    await world.telegram.waitForBotMessage(budi, { after: second, textIncludes: '✅ PIN disimpan' });
    expect(first.deleted).toBe(false);
    expect(second.deleted).toBe(true);
    const warnings = world.telegram.botMessages(budi).filter((m) => m.text?.includes('Hapus pesan itu sendiri'));
    expect(warnings).toHaveLength(1);
    expect(world.logs.filter((line) => line.includes('could not delete a message that carried a secret'))).toHaveLength(1);
    expect(world.telegram.callsTo('deleteMessage')).toHaveLength(2);
  });

  it('refuses a malformed or guessable PIN and a confirmation that differs', async () => {
    const intro = await say('/pin', 'belum punya PIN');
    await world.telegram.waitForBotMessage(budi, { after: intro, textIncludes: 'PIN baru' });
    const letters = budi.send('12ab');
    await world.telegram.waitForBotMessage(budi, { after: letters, textIncludes: '4–6 angka, tanpa huruf' });
    expect(letters.deleted).toBe(true);
    await say('1234', 'terlalu mudah ditebak');
    await say(pin, 'sekali lagi');
    await say('482916', 'tidak sama');
    await say(newPin, 'sekali lagi');
    await say(newPin, '✅ PIN disimpan');
    expect(await world.app.services.pin.verify(budi.id, newPin)).toEqual({ ok: true });
  });

  it('changes the PIN after the current one; a wrong current PIN says how many tries are left', async () => {
    await openMenu('🔁 Ganti PIN');
    const wrong = budi.send('111222');
    const answer = await world.telegram.waitForBotMessage(budi, { after: wrong, textIncludes: 'PIN salah' });
    expect(answer.text).toContain('Sisa 4 kali');
    expect(wrong.deleted).toBe(true);
    await say(pin, 'PIN baru');
    await say(newPin, 'sekali lagi');
    await say(newPin, '✅ PIN diganti');
    expect(await world.app.services.pin.verify(budi.id, newPin)).toEqual({ ok: true });
    expect(await world.app.services.pin.verify(budi.id, pin)).toMatchObject({ ok: false });
  });

  it('removes the PIN after the current one', async () => {
    await openMenu('🗑 Hapus PIN');
    const current = budi.send(pin);
    await world.telegram.waitForBotMessage(budi, { after: current, textIncludes: '✅ PIN dihapus' });
    expect(current.deleted).toBe(true);
    expect(await world.app.services.pin.hasPin(budi.id)).toBe(false);
  });

  it('locks purchases for 15 minutes after five wrong PINs', async () => {
    await openMenu('🗑 Hapus PIN');
    for (const left of [4, 3, 2, 1]) await say('000111', `Sisa ${left} kali`);
    const locked = await say('000111', 'dikunci sampai');
    expect(locked.text).toMatch(/dikunci sampai \d{2} \w{3} \d{4} \d{2}\.\d{2} WIB/);
    const until = await world.app.services.pin.lockedUntil(budi.id);
    expect(until).toBeDefined();
    expect((until?.getTime() ?? 0) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(await world.app.services.pin.hasPin(budi.id)).toBe(true);

    // Even the right PIN is refused while locked; /pin says so at once.
    const again = await world.telegram.waitForBotMessage(budi, { after: budi.send('/pin'), textIncludes: '🔒' });
    expect(again.text).toContain('dikunci sampai');
  });

  it('the Cancel button leaves the PIN as it was', async () => {
    await withPin();
    const menu = await say('/pin', 'PIN transaksi sedang aktif');
    budi.tap(menu, '❌ Batal');
    await world.telegram.waitForBotMessage(budi, { after: menu, textIncludes: 'PIN tidak berubah' });
    expect(await world.app.services.pin.verify(budi.id, pin)).toEqual({ ok: true });
  });

  it('/pin in a group answers that it is private', async () => {
    const group = world.telegram.createGroup({ title: 'Toko Budi', members: [budi] });
    const reply = await world.telegram.waitForBotMessage(group, { after: budi.send('/pin', { chat: group }) });
    expect(reply.text).toContain('chat pribadi');
  });
});
