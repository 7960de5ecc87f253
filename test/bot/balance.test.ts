import { afterEach, describe, expect, it } from 'vitest';
import { dataDirectoryOf, startWorld, type TestWorld, type TestWorldOptions } from '../helpers/app.ts';
import { itOnLowdb } from '../helpers/test-store.ts';
import { connectReseller } from '../helpers/connect.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';
import { typingAfterMs } from '../../src/bot/features/balance.ts';
import { balancesFileName } from '../../src/store/balances.ts';
import { writeFileAtomic, type AtomicWriter } from '../../src/store/durable-file.ts';
import { enospc } from '../helpers/disk.ts';

/** A disk on which the test holds or fails the writes of balances.json only (every other file is written as usual). */
function balancesDisk() {
  const held: Array<() => void> = [];
  const disk = { hold: false, fail: false, held };
  const write: AtomicWriter = async (file, content, options) => {
    if (file.endsWith(balancesFileName)) {
      if (disk.hold) await new Promise<void>((resolve) => held.push(resolve));
      if (disk.fail) throw enospc(file);
    }
    await writeFileAtomic(file, content, options);
  };
  return { disk, write };
}

const main = resellerDemoAccounts.main;

describe('/balance', () => {
  let world: TestWorld;
  let budi: EmulatedUser;
  const start = async (options?: TestWorldOptions) => {
    world = await startWorld(options);
    budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
  };
  afterEach(async () => {
    await world.stop();
  });

  /** Stores credentials without the /connect flow (for accounts the provider would refuse). */
  const seedReseller = (account: { apiId: string; apiKey: string }) =>
    world.app.db.credentials.save(budi.id, 'reseller', { apiId: account.apiId, apiKey: account.apiKey }, 'seeded');

  it('says how to connect when nothing is connected', async () => {
    await start();
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(reply.text).toContain('belum terhubung');
    expect(reply.text).toContain('/connect');
  });

  it('shows the balance in rupiah with the time in WIB and refreshes it in place', async () => {
    await start();
    await connectReseller(world, budi);
    const shown = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(shown.text).toContain('Saldo Top-up reseller: Rp 1.000.000');
    expect(shown.text).toContain('DEMO…LER');
    expect(shown.text).toMatch(/Per \d{2} \w{3} \d{4} \d{2}\.\d{2} WIB/);
    expect(shown.buttons.flat()).toEqual(['🔄 Muat ulang']);

    world.sandbox.reseller.setBalance(main.apiId, 987_500);
    const query = budi.tap(shown, '🔄 Muat ulang');
    await world.telegram.waitFor(() => shown.text?.includes('Rp 987.500'));
    expect((await world.telegram.waitForCallbackAnswer(query)).text).toBe('Saldo diperbarui.');

    // Nothing changed within the same minute: Telegram refuses the edit, the user is told.
    const again = budi.tap(shown, '🔄 Muat ulang');
    expect((await world.telegram.waitForCallbackAnswer(again)).text).toBe('Saldo masih sama.');
  });

  it('answers in English for an English user', async () => {
    await start();
    const jane = world.telegram.createUser({ firstName: 'Jane', languageCode: 'en' });
    await connectReseller(world, jane);
    const shown = await world.telegram.waitForBotMessage(jane, { after: jane.send('/balance') });
    expect(shown.text).toContain('Reseller top-up balance: Rp 1.000.000');
    expect(shown.text).toContain('As of');
    // English writes the hour with a colon; Indonesian (above) with a dot.
    expect(shown.text).toMatch(/As of \d{2} \w{3} \d{4} \d{2}:\d{2} WIB/);
  });

  it('shows "typing…" only while a slow provider answers: a quick balance costs one message', async () => {
    await start();
    await seedReseller(main);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Rp 1.000.000' });
    expect(world.telegram.callsTo('sendChatAction')).toHaveLength(0);

    world.sandbox.inject({ service: 'reseller', path: '/cek-saldo', times: 1, fault: { kind: 'latency', ms: typingAfterMs + 300 } });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Rp 1.000.000' });
    expect(world.telegram.callsTo('sendChatAction').map((call) => call.params.action)).toEqual(['typing']);
  });

  it('says to try later when the provider does not answer', async () => {
    // Every balance call below is faulted, so the short timeout is only ever waited out (3 tries).
    await start({ providerTimeoutMs: 150, providerRetryDelayMs: 10 });
    await seedReseller(main);
    world.sandbox.inject({ service: 'reseller', path: '/cek-saldo', times: 3, fault: { kind: 'timeout-before' } });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), timeoutMs: 6000 });
    expect(world.sandbox.received.filter((r) => r.path === '/cek-saldo')).toHaveLength(3);
    expect(reply.text).toContain('tidak menjawab tepat waktu');
    expect(reply.text).toContain('Coba lagi');
  });

  it('tells which IP to whitelist when the provider blocks the server', async () => {
    await start();
    await seedReseller(resellerDemoAccounts.blocked);
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(reply.text).toContain('203.0.113.7');
  });

  it('offers to reconnect when the provider no longer accepts the key', async () => {
    await start();
    await seedReseller({ apiId: main.apiId, apiKey: 'a-key-that-was-replaced' });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(reply.text).toContain('menolak kredensial');
    expect(reply.text).toContain('/connect');
  });

  /** Starts with Budi connected, on a disk whose balances.json writes the test holds or fails. */
  const startWithBalancesDisk = async () => {
    const { disk, write } = balancesDisk();
    await start({ app: { storeWriteFile: write } });
    await seedReseller(main);
    return disk;
  };
  const balanceShown = () => world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Rp 1.000.000' });

  itOnLowdb('the write of balances.json, a data file')(
    'answers without waiting for balances.json; the balance is recorded once that write lands',
    async () => {
      const disk = await startWithBalancesDisk();
      disk.hold = true;
      await balanceShown();
      // The balance's write is still held: the answer did not wait for it.
      await world.telegram.waitFor(() => disk.held.length === 1);

      disk.hold = false;
      for (const resume of disk.held.splice(0)) resume();
      await dataDirectoryOf(world.app).flush();
      expect((await world.app.db.balances.list(budi.id)).map((entry) => entry.balance)).toEqual([1_000_000]);
    },
  );

  itOnLowdb('a data file that cannot be written')('still answers when balances.json cannot be written, and logs it', async () => {
    const disk = await startWithBalancesDisk();
    disk.fail = true;
    await balanceShown();
    await world.telegram.waitFor(() => world.logs.some((line) => line.includes('balance not recorded')));
    expect(await world.app.db.balances.list(budi.id)).toEqual([]);
  });

  it('after a reconnect to another account, /saldo reads the new account and shows its label', async () => {
    await start();
    await world.app.services.credentials.verifyAndSave(budi.id, 'reseller', { apiId: main.apiId, apiKey: main.apiKey });
    const before = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Saldo' });
    expect(before.text).toContain('Rp 1.000.000');
    expect(before.text).toContain('DEMO…LER');

    await connectReseller(world, budi, resellerDemoAccounts.second);
    const after = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Saldo' });
    expect(after.text).toContain('Rp 250.000');
    expect(after.text).toContain('DEMO…R-2');
  });

  it('uses credentials changed or removed past this bot (another instance) at the next /saldo', async () => {
    await start();
    await seedReseller(main);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Rp 1.000.000' });

    // Written to the store directly, as another instance of a fleet writes them.
    await seedReseller(resellerDemoAccounts.second);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Rp 250.000' });

    await world.app.db.credentials.remove(budi.id, 'reseller');
    const gone = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(gone.text).toContain('belum terhubung');
  });

  it('answers in groups that the balance is private', async () => {
    await start();
    const group = world.telegram.createGroup({ title: 'Toko Budi', members: [budi] });
    const reply = await world.telegram.waitForBotMessage(group, { after: budi.send('/saldo', { chat: group }) });
    expect(reply.text).toContain('chat pribadi');
  });
});
