import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld, type TestWorldOptions } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import { connectReseller } from '../helpers/connect.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';

/** The /start payload of the newest invite link in `message`. */
function payloadIn(message: EmulatedMessage): string {
  const match = /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec(message.text ?? '');
  if (!match?.[1]) throw new Error(`no invite link in ${message.text}`);
  return match[1];
}

describe('downlines: roles, invitations and levels (DOWNLINES=true)', () => {
  let world: TestWorld;
  let clock = Date.parse('2026-12-01T03:00:00Z');
  const start = async (options: TestWorldOptions = {}) => {
    world = await startWorld({
      jobs: true,
      ...options,
      env: { DOWNLINES: 'true', ...options.env },
      app: { now: () => new Date(clock), outboxLimits: { perChatMs: 20 }, ...options.app },
    });
  };
  afterEach(async () => {
    await world.stop();
  });

  /** An upline with downline mode open and a fresh invite link; returns the link's /start payload. */
  const openWithInvite = async (upline: EmulatedUser, command = '/downline undang'): Promise<string> => {
    await world.telegram.waitForBotMessage(upline, { after: upline.send('/downline'), textIncludes: 'Level' });
    const made = await world.telegram.waitForBotMessage(upline, { after: upline.send(command), textIncludes: 'Link undangan baru' });
    expect(made.text).toContain(`https://t.me/${world.telegram.botInfo.username}?start=dl_${upline.id}_`);
    return payloadIn(made);
  };

  /** A user who is nobody's reseller writes /start once (their record exists), then opens `payload`. */
  const join = async (user: EmulatedUser, payload: string): Promise<EmulatedMessage> =>
    world.telegram.waitForBotMessage(user, { after: user.send(`/start ${payload}`) });

  it('opens downline mode; an invite asks to join, the upline approves into a level, a second tap writes nothing', async () => {
    clock = Date.now();
    await start();
    const budi = await buyer(world);
    const opened = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Mode downline dibuka' });
    const home = await world.telegram.waitForBotMessage(budi, { after: opened, textIncludes: 'Belum ada downline' });
    expect(home.text).toContain('Bronze (default): harga = modal Anda');
    expect(home.buttons).toEqual([['🔗 Undangan', '🏷 Level'], ['🤖 Setujui otomatis: mati']]);

    const level = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('/downline level Silver 2%\nbrand TELKOMSEL 500\nbulat 100'),
      textIncludes: 'Level dibuat',
    });
    expect(level.text).toContain('Silver: +2% · Dibulatkan ke atas ke kelipatan Rp 100 · 1 brand, 0 produk khusus');

    const payload = await openWithInvite(budi);
    const sari = world.telegram.createUser({ firstName: 'Sari', username: 'sari', languageCode: 'id' });
    const asked = await join(sari, payload);
    expect(asked.text).toContain('Permintaan bergabung terkirim ke Budi');
    const again = await join(sari, payload);
    expect(again.text).toContain('masih menunggu jawaban');

    const request = await world.telegram.waitForBotMessage(budi, { textIncludes: 'minta bergabung sebagai downline' });
    expect(request.text).toContain('Sari (@sari)');
    expect(request.buttons).toEqual([['✅ Setujui: Bronze', '✅ Setujui: Silver'], ['❌ Tolak']]);
    // A double tap (two buttons even) before the first answer: one approval, the other told what was decided.
    const tap = budi.tap(request, '✅ Setujui: Silver');
    const second = budi.tap(request, '✅ Setujui: Bronze');
    expect((await world.telegram.waitForCallbackAnswer(tap)).text).toContain('Disetujui: level Silver');
    expect((await world.telegram.waitForCallbackAnswer(second)).text).toContain('sudah dijawab');
    const told = await world.telegram.waitForBotMessage(sari, { after: again, textIncludes: 'menyetujui' });
    expect(told.text).toContain('Budi menyetujui Anda sebagai downline, level Silver');
    const membership = (await world.app.db.users.get(sari.id))?.membership;
    expect(membership).toMatchObject({ uplineId: budi.id, levelId: 'silver', status: 'active' });
    const decided = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === request.messageId && m.buttons.length === 0,
    });
    expect(decided.text).toContain('✅ Disetujui: level Silver.');
    await world.idle();
    expect(world.telegram.botMessages(sari).filter((m) => (m.text ?? '').includes('menyetujui'))).toHaveLength(1);
    expect((await world.app.db.users.get(budi.id))?.downlineMode?.requests).toMatchObject([
      { userId: sari.id, status: 'approved', levelId: 'silver' },
    ]);

    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Downline (1)' });
    expect(list.text).toMatch(/1\. Sari \(@sari\) · Silver · bergabung \d+ \w+ 2026 · aktif/);
    expect(list.text).toContain('└ saldo Rp 0 · hari ini 0 trx · margin Anda Rp 0');
  });

  it('revokes an invite by button; revoked, expired and used-up links are refused with their reason, nothing stored', async () => {
    clock = Date.parse('2026-12-01T03:00:00Z');
    await start();
    const budi = await buyer(world);
    const revokedPayload = await openWithInvite(budi);
    const screen = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Level' });
    budi.tap(screen, '🔗 Undangan');
    const invites = await world.telegram.waitForBotMessage(budi, {
      textIncludes: 'Link undangan',
      where: (m) => m.messageId === screen.messageId && (m.text ?? '').includes('dipakai'),
    });
    expect(invites.text).toContain(revokedPayload);
    const revoke = budi.tap(invites, '🚫 Cabut 1');
    expect((await world.telegram.waitForCallbackAnswer(revoke)).text).toBe('Link dicabut.');

    const expiring = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('/downline undang 1d'),
      textIncludes: 'Link undangan baru',
    });
    const oneUse = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('/downline undang 1x'),
      textIncludes: 'Link undangan baru',
    });

    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    expect((await join(sari, revokedPayload)).text).toContain('sudah dicabut');
    const ani = world.telegram.createUser({ firstName: 'Ani', languageCode: 'id' });
    expect((await join(ani, payloadIn(oneUse))).text).toContain('terkirim');
    expect((await join(sari, payloadIn(oneUse))).text).toContain('sudah habis dipakai');
    clock += 25 * 3600_000;
    expect((await join(sari, payloadIn(expiring))).text).toContain('sudah kedaluwarsa');
    expect((await join(sari, `dl_${budi.id}_NOSUCHINVITE`)).text).toContain('tidak berlaku');

    const mode = (await world.app.db.users.get(budi.id))?.downlineMode;
    expect(mode?.requests.map((r) => r.userId)).toEqual([ani.id]);
    expect((await world.app.db.users.get(sari.id))?.membership).toBeUndefined();
  });

  it('auto-approve joins the default level and tells the upline; a declined joiner is told', async () => {
    clock = Date.now();
    await start();
    const budi = await buyer(world);
    const payload = await openWithInvite(budi);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline auto nyala'), textIncludes: 'nyala' });
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    expect((await join(sari, payload)).text).toContain('Anda sekarang downline dari Budi, level Bronze');
    await world.telegram.waitForBotMessage(budi, { textIncludes: 'Sari bergabung sebagai downline Anda (setujui otomatis), level Bronze' });
    expect((await world.app.db.users.get(sari.id))?.membership).toMatchObject({ uplineId: budi.id, levelId: 'bronze' });

    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline auto mati'), textIncludes: 'mati' });
    const ann = world.telegram.createUser({ firstName: 'Ann', languageCode: 'en' });
    expect((await join(ann, payload)).text).toContain('Join request sent to Budi');
    const request = await world.telegram.waitForBotMessage(budi, { textIncludes: 'Ann (ID' });
    const tap = budi.tap(request, '❌ Tolak');
    expect((await world.telegram.waitForCallbackAnswer(tap)).text).toContain('Ditolak');
    await world.telegram.waitForBotMessage(ann, { textIncludes: 'Budi declined your request to join' });
    expect((await world.app.db.users.get(ann.id))?.membership).toBeUndefined();
    const decided = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === request.messageId && (m.text ?? '').includes('❌ Ditolak.'),
    });
    expect(decided.buttons).toEqual([]);
  });

  it('refuses a connected reseller as downline, /downline to a downline and to a user without an account, and the own link', async () => {
    clock = Date.now();
    await start();
    const budi = await buyer(world);
    const payload = await openWithInvite(budi);
    expect((await join(budi, payload)).text).toContain('link undangan Anda sendiri');

    const rudi = await buyer(world, 'Rudi', { account: resellerDemoAccounts.main });
    expect((await join(rudi, payload)).text).toContain('sudah menghubungkan akun top-up reseller sendiri');

    const nobody = world.telegram.createUser({ firstName: 'Nina', languageCode: 'id' });
    await world.telegram.waitForBotMessage(nobody, { after: nobody.send('/start') });
    expect((await world.telegram.waitForBotMessage(nobody, { after: nobody.send('/downline') })).text).toContain(
      'Hubungkan dulu dengan /hubungkan',
    );

    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline auto nyala'), textIncludes: 'nyala' });
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    await join(sari, payload);
    const refused = await world.telegram.waitForBotMessage(sari, { after: sari.send('/downline') });
    expect(refused.text).toContain('Anda adalah downline dari Budi, jadi tidak bisa membuka mode downline sendiri');
    expect((await world.app.db.users.get(sari.id))?.downlineMode).toBeUndefined();

    // Connecting a reseller account of their own is refused while they are a downline.
    const picker = await world.telegram.waitForBotMessage(sari, { after: sari.send('/hubungkan') });
    sari.tap(picker, picker.buttons.flat().find((b) => b.includes('reseller') || b.includes('Reseller')) ?? '');
    await world.telegram.waitForBotMessage(sari, { after: picker, textIncludes: 'akun top-up reseller sendiri tidak bisa dihubungkan' });
    expect(await world.app.db.credentials.has(sari.id, 'reseller')).toBe(false);
    // Anyone else connects as before.
    expect((await connectReseller(world, nobody)).text).toContain('terhubung');
    expect(await world.app.db.credentials.has(nobody.id, 'reseller')).toBe(true);
  });

  it('an upline whose reseller account is gone takes no request and approves none; a joiner who connected one meanwhile is voided and told', async () => {
    clock = Date.now();
    await start();
    const budi = await buyer(world);
    const payload = await openWithInvite(budi);
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    const asked = await join(sari, payload);
    const request = await world.telegram.waitForBotMessage(budi, { textIncludes: 'minta bergabung sebagai downline' });

    await world.app.services.credentials.remove(budi.id, 'reseller');
    const ani = world.telegram.createUser({ firstName: 'Ani', languageCode: 'id' });
    expect((await join(ani, payload)).text).toContain('belum bisa menerima downline');
    const refused = budi.tap(request, '✅ Setujui: Bronze');
    expect((await world.telegram.waitForCallbackAnswer(refused)).text).toContain('hubungkan dulu dengan /hubungkan');
    expect((await world.app.db.users.get(sari.id))?.membership).toBeUndefined();

    // Reconnected: the same request can be answered; the joiner connected a reseller account meanwhile.
    const { apiId, apiKey } = resellerDemoAccounts.main;
    await world.app.services.credentials.verifyAndSave(budi.id, 'reseller', { apiId, apiKey });
    await world.app.services.credentials.verifyAndSave(sari.id, 'reseller', { apiId, apiKey });
    const voided = budi.tap(request, '✅ Setujui: Bronze');
    expect((await world.telegram.waitForCallbackAnswer(voided)).text).toContain('sudah menghubungkan akun reseller sendiri');
    await world.telegram.waitForBotMessage(sari, {
      after: asked,
      textIncludes: 'tidak bisa disetujui: Anda sudah menghubungkan akun top-up reseller sendiri',
    });
    expect((await world.app.db.users.get(sari.id))?.membership).toBeUndefined();
    expect((await world.app.db.users.get(budi.id))?.downlineMode?.requests).toMatchObject([{ userId: sari.id, status: 'void' }]);
  });

  it('suspends, resumes, moves and removes a downline by button; the downline is told each change', async () => {
    clock = Date.now();
    await start();
    const budi = await buyer(world);
    const payload = await openWithInvite(budi);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline level Gold 1%'), textIncludes: 'Level dibuat' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline auto nyala'), textIncludes: 'nyala' });
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    await join(sari, payload);

    const home = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Downline (1)' });
    budi.tap(home, '1. Sari');
    const card = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('👤'),
    });
    expect(card.buttons).toEqual([['⏸ Tangguhkan', '🗑 Keluarkan'], ['🏷 Jadikan Gold'], ['💳 Batas harian', '📊 Laporan'], ['⬅️ Kembali']]);
    budi.tap(card, '⏸ Tangguhkan');
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Budi menangguhkan akun downline Anda' });
    const suspended = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('ditangguhkan'),
    });
    expect((await world.app.db.users.get(sari.id))?.membership?.status).toBe('suspended');
    budi.tap(suspended, '▶️ Aktifkan');
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Budi mengaktifkan lagi' });
    const resumed = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('Status: aktif'),
    });
    budi.tap(resumed, '🏷 Jadikan Gold');
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Budi memindahkan Anda ke level Gold' });
    const moved = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('Level: Gold'),
    });
    budi.tap(moved, '🗑 Keluarkan');
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Budi mengeluarkan Anda dari downline mereka' });
    await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('Belum ada downline'),
    });
    expect((await world.app.db.users.get(sari.id))?.membership).toBeUndefined();
  });

  it('with DOWNLINES off, /downline is an unknown command and an invite link a plain /start', async () => {
    clock = Date.now();
    await start({ env: { DOWNLINES: 'false' } });
    const budi = await buyer(world);
    const unknown = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline') });
    const other = await world.telegram.waitForBotMessage(budi, { after: budi.send('/nosuchcommand') });
    expect(unknown.text).toBe(other.text);
    expect((await world.app.db.users.get(budi.id))?.downlineMode).toBeUndefined();
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    const plain = await world.telegram.waitForBotMessage(sari, { after: sari.send('/start') });
    const invite = await world.telegram.waitForBotMessage(sari, { after: sari.send(`/start dl_${budi.id}_abcdefgh`) });
    expect(invite.text).toBe(plain.text);
  });
});
