import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { advanceWallClock } from '../helpers/wall-clock.ts';

const pin = '482915';
const newPin = '7305';

/** Sends text and waits for the bot's next message (containing `textIncludes`, when given). */
function say(world: TestWorld, user: EmulatedUser, text: string, textIncludes?: string | RegExp): Promise<EmulatedMessage> {
  return world.telegram.waitForBotMessage(user, { after: user.send(text), ...(textIncludes === undefined ? {} : { textIncludes }) });
}

describe('/pin: /batal and timeouts', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('/batal while changing the PIN ends it: the PIN stays, and digits typed afterwards are not taken as the new PIN', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    await world.app.db.users.upsert({ id: budi.id, firstName: 'Budi' });
    await world.app.services.pin.set(budi.id, pin);
    const before = (await world.app.db.users.get(budi.id))?.pin;

    const menu = await say(world, budi, '/pin', 'PIN transaksi sedang aktif');
    budi.tap(menu, '🔁 Ganti PIN');
    await world.telegram.waitForBotMessage(budi, { after: menu, textIncludes: 'PIN Anda yang sekarang' });
    await say(world, budi, pin, 'PIN baru');

    const cancelled = await say(world, budi, '/batal', 'Dibatalkan');
    expect(cancelled.text).not.toContain('Tidak ada proses');

    // The new PIN typed now reaches no conversation: deleted as a secret, not stored.
    const late = budi.send(newPin);
    const reply = await world.telegram.waitForBotMessage(budi, { after: late });
    expect(reply.text).toContain('saya hapus');
    expect(late.deleted).toBe(true);
    expect(world.telegram.botMessages(budi).some((m) => m.text?.includes('sekali lagi'))).toBe(false);
    expect((await world.app.db.users.get(budi.id))?.pin).toEqual(before);
    expect(await world.app.services.pin.verify(budi.id, pin)).toEqual({ ok: true });
  });

  it('/batal between the new PIN and its confirmation sets nothing', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const intro = await say(world, budi, '/pin', 'belum punya PIN');
    await world.telegram.waitForBotMessage(budi, { after: intro, textIncludes: 'PIN baru' });
    await say(world, budi, pin, 'sekali lagi');
    await say(world, budi, '/batal', 'Dibatalkan');

    const late = budi.send(pin);
    const reply = await world.telegram.waitForBotMessage(budi, { after: late });
    expect(reply.text).not.toContain('PIN disimpan');
    expect(late.deleted).toBe(true);
    expect(await world.app.services.pin.hasPin(budi.id)).toBe(false);
  });

  it('a PIN typed after the step timed out is deleted, sets nothing, and the bot says to start again with /pin', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const intro = await say(world, budi, '/pin', 'belum punya PIN');
    await world.telegram.waitForBotMessage(budi, { after: intro, textIncludes: 'PIN baru' });
    await world.idle();
    advanceWallClock(16 * 60_000); // the step times out (15 minutes)

    const late = budi.send(pin);
    const reply = await world.telegram.waitForBotMessage(budi, { after: late });
    expect(late.deleted).toBe(true);
    expect(reply.text).toContain('sudah berakhir');
    expect(reply.text).toContain('Mulai lagi dengan /pin');
    expect(await world.app.services.pin.hasPin(budi.id)).toBe(false);
  });

  it('a non-PIN answer after the step timed out names /pin as the way back', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const intro = await say(world, budi, '/pin', 'belum punya PIN');
    await world.telegram.waitForBotMessage(budi, { after: intro, textIncludes: 'PIN baru' });
    await world.idle();
    advanceWallClock(16 * 60_000); // the step times out (15 minutes)

    const reply = await say(world, budi, 'pin saya 12ab');
    expect(reply.text).toContain('sudah berakhir');
    expect(reply.text).toContain('Mulai lagi dengan /pin');
    expect(reply.text).not.toContain('4–6 angka');
    expect(await world.app.services.pin.hasPin(budi.id)).toBe(false);
  });
});

describe('/pin: how the PIN is stored', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  /** Sets `value` as the user's PIN through the bot, like a user does. */
  async function setPinViaBot(user: EmulatedUser, value: string): Promise<void> {
    const intro = await say(world, user, '/pin', 'belum punya PIN');
    await world.telegram.waitForBotMessage(user, { after: intro, textIncludes: 'PIN baru' });
    await say(world, user, value, 'sekali lagi');
    await say(world, user, value, '✅ PIN disimpan');
  }

  it('is a salted slow hash: the same PIN of two users gives different salts and hashes, none a plain digest', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const siti = world.telegram.createUser({ firstName: 'Siti', languageCode: 'id' });
    await Promise.all([setPinViaBot(budi, pin), setPinViaBot(siti, pin)]);

    const a = (await world.app.db.users.get(budi.id))?.pin;
    const b = (await world.app.db.users.get(siti.id))?.pin;
    expect(a?.hash).toBeTruthy();
    expect(b?.hash).toBeTruthy();
    expect(a?.salt).toBeTruthy();
    expect(a?.salt).not.toBe(b?.salt);
    expect(a?.hash).not.toBe(b?.hash);

    for (const stored of [a, b]) {
      const hash = stored?.hash ?? '';
      const salt = Buffer.from(stored?.salt ?? '', 'base64');
      // A salt worth the name: at least 8 random bytes.
      expect(salt.length).toBeGreaterThanOrEqual(8);
      const fast: Buffer[] = [];
      for (const algorithm of ['md5', 'sha1', 'sha256', 'sha512']) {
        fast.push(createHash(algorithm).update(pin).digest());
        fast.push(
          createHash(algorithm)
            .update(Buffer.concat([salt, Buffer.from(pin)]))
            .digest(),
        );
        fast.push(
          createHash(algorithm)
            .update(Buffer.concat([Buffer.from(pin), salt]))
            .digest(),
        );
        fast.push(createHmac(algorithm, salt).update(pin).digest());
        fast.push(createHmac(algorithm, pin).update(salt).digest());
      }
      for (const digest of fast) {
        expect(hash).not.toBe(digest.toString('base64'));
        expect(hash).not.toBe(digest.toString('hex'));
        expect(hash).not.toBe(digest.toString('base64url'));
      }
    }
    // Both users' PINs still check.
    expect(await world.app.services.pin.verify(budi.id, pin)).toEqual({ ok: true });
    expect(await world.app.services.pin.verify(siti.id, pin)).toEqual({ ok: true });
  });
});
