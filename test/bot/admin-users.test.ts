import { afterEach, describe, expect, it } from 'vitest';
import { demoReseller, startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';

const adminId = 990001;

describe('/user, /ban, /unban', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('/user by id or @username: profile, connected services without secrets, the last 5 transactions', async () => {
    world = await startWorld({ env: { ADMIN_IDS: String(adminId) } });
    const boss = world.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: adminId });
    const sari = await seedConnectedUser(world, 'Sari <3');
    await world.telegram.waitForBotMessage(sari, { after: sari.send('/start') });
    const refs: string[] = [];
    for (let i = 0; i < 6; i++) refs.push(await seedPurchase(world, sari, { target: `08123456780${i}` }));
    await world.app.db.users.update(sari.id, { username: 'SariCell', locale: 'en' });

    const byName = await world.telegram.waitForBotMessage(boss, { after: boss.send('/user @saricell') });
    const text = byName.text ?? '';
    expect(text).toContain('Sari <3');
    expect(text).toContain(String(sari.id));
    expect(text).toContain('@SariCell');
    expect(text).toContain('Bahasa: en');
    expect(text).toContain('Status: ✅ aktif');
    expect(text).toContain('Top-up reseller');
    expect(text).not.toContain(demoReseller.main.apiKey);
    // Newest first, five of them: the first purchase is not listed.
    expect(text).toContain('081234567805');
    expect(text).toContain('081234567801');
    expect(text).not.toContain('081234567800');
    const byId = await world.telegram.waitForBotMessage(boss, { after: boss.send(`/user ${sari.id}`) });
    expect(byId.text).toBe(text);

    // A user who never chose a language: the one the bot speaks to them, from their Telegram app
    // when the bot speaks it, else the default.
    const dewi = await seedConnectedUser(world, 'Dewi', { languageCode: 'en' });
    await world.telegram.waitForBotMessage(dewi, { after: dewi.send('/start') });
    const unchosen = await world.telegram.waitForBotMessage(boss, { after: boss.send(`/user ${dewi.id}`) });
    expect(unchosen.text).toContain('Bahasa: en (aplikasi Telegram, belum dipilih)');
    const rina = await seedConnectedUser(world, 'Rina', { languageCode: 'fr' });
    await world.telegram.waitForBotMessage(rina, { after: rina.send('/start') });
    const fallback = await world.telegram.waitForBotMessage(boss, { after: boss.send(`/user ${rina.id}`) });
    expect(fallback.text).toContain('Bahasa: id (bawaan, belum dipilih)');

    const unknown = await world.telegram.waitForBotMessage(boss, { after: boss.send('/user @nobody') });
    expect(unknown.text).toContain('tidak ditemukan');
    const usage = await world.telegram.waitForBotMessage(boss, { after: boss.send('/user') });
    expect(usage.text).toContain('/user 123456789');
  });

  it('a banned user gets one message saying so, in their language, and no service at all; their Pending purchase still settles', async () => {
    world = await startWorld({ jobs: true, app: { outboxLimits: { perChatMs: 10 } }, env: { ADMIN_IDS: String(adminId) } });
    const boss = world.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: adminId });
    const joe = await seedConnectedUser(world, 'Joe', { languageCode: 'en' });
    const menu = await world.telegram.waitForBotMessage(joe, { after: joe.send('/settings') });
    const refId = await seedPurchase(world, joe);
    await world.app.db.users.update(joe.id, { username: 'joe_cell' });

    const refused = await world.telegram.waitForBotMessage(boss, { after: boss.send(`/ban ${adminId}`) });
    expect(refused.text).toContain('Admin tidak bisa diblokir');
    const done = await world.telegram.waitForBotMessage(boss, { after: boss.send('/ban @joe_cell') });
    expect(done.text).toContain('diblokir');
    expect((await world.app.db.users.get(joe.id))?.ban).toMatchObject({ by: adminId });
    expect(world.logs.some((line) => line.includes('user banned') && line.includes(String(joe.id)))).toBe(true);
    const lastSeen = world.telegram.botMessages(joe).at(-1)?.messageId ?? 0;

    // Commands, buttons, quick-buy lines, plain text and inline queries: one message says so, then nothing.
    joe.send('/balance');
    joe.send('/start');
    joe.send('TSEL10.081234567890');
    joe.send('halo');
    const tap = joe.tap(menu, menu.buttons[0]?.[0] ?? '');
    world.telegram.pushUpdate({ inline_query: { id: 'iq-1', from: joe.user, query: 'tsel', offset: '' } });
    await world.idle();
    const after = world.telegram.botMessages(joe).filter((m) => m.messageId > lastSeen);
    expect(after.map((m) => m.text)).toEqual([expect.stringContaining('banned by the admin')]);
    expect((await world.telegram.waitForCallbackAnswer(tap)).text ?? '').toBe('');
    expect((await world.app.db.users.get(joe.id))?.ban?.notified).toBe(true);
    expect(world.logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
    joe.send('/help');
    await world.idle();
    expect(world.telegram.botMessages(joe).filter((m) => m.messageId > lastSeen)).toHaveLength(1);
    expect((await world.app.db.transactions.listOpen()).filter((tx) => tx.userId === joe.id)).toHaveLength(1);
    const again = await world.telegram.waitForBotMessage(boss, { after: boss.send(`/ban ${joe.id}`) });
    expect(again.text).toContain('sudah diblokir');

    // Decided: a purchase made before the ban still settles and its owner is told.
    await world.app.services.purchases.markUnresolved(refId);
    await world.telegram.waitForBotMessage(joe, { after: lastSeen, textIncludes: 'Telkomsel' });

    const lifted = await world.telegram.waitForBotMessage(boss, { after: boss.send(`/unban ${joe.id}`) });
    expect(lifted.text).toContain('dicabut');
    expect((await world.app.db.users.get(joe.id))?.ban).toBeUndefined();
    const answer = await world.telegram.waitForBotMessage(joe, { after: joe.send('/help') });
    expect(answer.text).toContain('/balance');
    const notBanned = await world.telegram.waitForBotMessage(boss, { after: boss.send(`/unban ${joe.id}`) });
    expect(notBanned.text).toContain('tidak sedang diblokir');
  });
});
