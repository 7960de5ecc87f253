import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';

/** The provider Trx ID that the receipt of `refId` prints. */
async function trxIdOf(world: TestWorld, refId: string): Promise<string> {
  const trxId = (await world.app.db.transactions.get(refId))?.trxId;
  if (!trxId) throw new Error(`no trx id for ${refId}`);
  return trxId;
}

describe('/cek by provider Trx ID or by target number', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('finds one transaction by its Trx ID, also once settled, and lists several to one target newest first', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const older = await seedPurchase(world, budi, { target: '081234567890' });
    const olderTrx = await trxIdOf(world, older);
    const newer = await seedPurchase(world, budi, { target: '081234567890' });
    const single = await seedPurchase(world, budi, { target: '085711112222' });

    const byTrx = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${olderTrx}`) });
    expect(byTrx.text).toContain(`Ref ID: ${older}`);
    expect(byTrx.text).toContain('Status: ⏳ Pending');

    // Settled, it moves to history: still found by its Trx ID.
    world.sandbox.reseller.settle(older, 'Sukses', 'SN-OLD');
    const settled = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${older}`) });
    expect(settled.text).toContain('Status: ✅ Sukses');
    const again = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${olderTrx.toLowerCase()}`) });
    expect(again.text).toContain(`Ref ID: ${older}`);
    expect(again.text).toContain('SN: SN-OLD');

    const one = await world.telegram.waitForBotMessage(budi, { after: budi.send('/cek 0857-1111-2222') });
    expect(one.text).toContain(`Ref ID: ${single}`);

    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/cek 081234567890') });
    expect(list.text).toContain('081234567890');
    expect(list.text).not.toContain('085711112222');
    expect(list.buttons.flat()).toEqual(['1. TSEL10 → 081234567890', '2. TSEL10 → 081234567890']);
    budi.tap(list, '1. TSEL10 → 081234567890');
    await world.telegram.waitFor(() => list.text?.includes(`Ref ID: ${newer}`) === true);
    budi.tap(list, '« Daftar Pending');
    await world.telegram.waitFor(() => !list.text?.includes('Ref ID'));
  });

  it("answers another user's Trx ID or target exactly like an unknown one", async () => {
    const siti = await seedConnectedUser(world, 'Siti', { account: resellerDemoAccounts.second });
    const sitiRef = await seedPurchase(world, siti, { target: '085700001111' });
    const sitiTrx = await trxIdOf(world, sitiRef);
    const budi = await seedConnectedUser(world, 'Budi');
    await seedPurchase(world, budi, { target: '081234567890' });

    const unknown = await world.telegram.waitForBotMessage(budi, { after: budi.send('/cek TRXNOPE') });
    const foreignTrx = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${sitiTrx}`) });
    const foreignTarget = await world.telegram.waitForBotMessage(budi, { after: budi.send('/cek 085700001111') });
    expect(unknown.text).toContain('tidak ditemukan di akun Anda');
    expect(foreignTrx.text?.replace(sitiTrx, 'X')).toBe(unknown.text?.replace('TRXNOPE', 'X'));
    expect(foreignTarget.text?.replace('085700001111', 'X')).toBe(unknown.text?.replace('TRXNOPE', 'X'));
    expect(foreignTrx.buttons).toEqual([]);
    expect(foreignTarget.buttons).toEqual([]);
  });
});
