/**
 * DESIGN invariant 8: only a first send's refusal means "not created". Once the provider has
 * acknowledged a purchase (Pending with a trx id, or an unknown outcome), a 400/402/404 on a
 * re-check never finalises it: it stays open, is checked again, settles when the provider
 * settles it, and repeated refusals reach the operator feed once, as "needs review". The user is
 * never told "rejected, not charged" for it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld, TestWorldOptions } from '../helpers/app.ts';
import { buyPending, recheck, repliesTo, startSettlementWorld, testClock, waitForSettled, type TestClock } from '../helpers/settlement.ts';
import { buyer, sandboxTransactions } from '../helpers/buy.ts';
import { seedConnectedUser, seedPurchase, transactionRequests } from '../helpers/seed-transactions.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

const opsChatId = -1009876543210;
/** What the user must never read about a purchase the provider acknowledged. */
const notCharged = /saldo tidak terpotong|Transaksi ditolak|Ditolak/;

const refusals = [
  { status: 400, message: 'ref_id tidak valid' },
  { status: 402, message: 'Saldo tidak mencukupi' },
  { status: 404, message: 'Produk tidak ditemukan' },
] as const;

describe('a refusal on a re-check of an acknowledged purchase', () => {
  let world: TestWorld;
  let clock: TestClock;
  const start = async (options: TestWorldOptions = {}) => {
    clock = testClock();
    // The provider settles on the 5th status check it actually handles.
    world = await startSettlementWorld(clock, {
      sandbox: { reseller: { settleAfterChecks: 5, settleAfterMs: 3_600_000 } },
      env: { ADMIN_CHAT_ID: String(opsChatId) },
      ...options,
    });
    return world;
  };
  afterEach(async () => {
    await world.stop();
  });

  const userSaw = (user: EmulatedUser, pattern: RegExp) => world.telegram.botMessages(user).filter((m) => pattern.test(m.text ?? ''));
  const refuseOnce = (status: number, message: string, times = 1) =>
    world.sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      times,
      fault: { kind: 'status', status, body: { success: false, message } },
    });

  /** Re-checks until the store holds a final status (at most `limit` passes); returns it. */
  const recheckUntilFinal = async (refId: string, limit = 10) => {
    for (let pass = 0; pass < limit; pass += 1) {
      const stored = await world.app.db.transactions.find(refId);
      if (stored && ['Sukses', 'Gagal', 'Rejected', 'Unresolved'].includes(stored.status)) return stored;
      await recheck(world, clock);
    }
    return world.app.db.transactions.find(refId);
  };

  it.each(refusals)(
    '/cek meets a $status: still Pending and re-checked, settles Sukses later, the user never reads "not charged"',
    async ({ status, message }) => {
      await start();
      const budi = await buyer(world);
      const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
      const [charged] = sandboxTransactions(world);
      const refId = charged?.refId ?? 'missing';
      expect(charged?.status).toBe('Pending');

      refuseOnce(status, message);
      const answer = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${refId}`) });
      expect(answer.text).toContain('Status: ⏳ Pending');
      expect(answer.text).not.toMatch(notCharged);
      expect(answer.text).toContain('tetap dicek');
      expect(answer.buttons.flat()).toContain('🔄 Cek lagi');
      const stored = await world.app.db.transactions.find(refId);
      expect(stored?.status).toBe('Pending');
      expect((await world.app.db.transactions.listOpen()).map((tx) => tx.refId)).toContain(refId);

      // The watcher keeps checking the same ref; the provider settles it.
      const before = transactionRequests(world, refId);
      const final = await recheckUntilFinal(refId);
      expect(final?.status).toBe('Sukses');
      expect(transactionRequests(world, refId)).toBeGreaterThan(before);
      await waitForSettled(world, budi, pending, 'Transaksi sukses');
      expect(pending.text).toContain(sandboxTransactions(world)[0]?.sn ?? 'missing sn');
      await world.app.outbox.drain();
      expect(userSaw(budi, notCharged)).toHaveLength(0);
      expect(sandboxTransactions(world)).toHaveLength(1);
    },
  );

  it.each(refusals)(
    'the watcher meets a $status: still open, checked again on schedule, settles Sukses with one notice',
    async ({ status, message }) => {
      await start();
      const budi = await buyer(world);
      const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
      const refId = sandboxTransactions(world)[0]?.refId ?? 'missing';

      refuseOnce(status, message);
      await recheck(world, clock);
      const stored = await world.app.db.transactions.find(refId);
      expect(stored?.status).toBe('Pending');
      expect(stored?.nextCheckAt).toBeDefined();
      expect((await world.app.db.transactions.listOpen()).map((tx) => tx.refId)).toContain(refId);
      await world.app.outbox.drain();
      expect(userSaw(budi, notCharged)).toHaveLength(0);

      const final = await recheckUntilFinal(refId);
      expect(final?.status).toBe('Sukses');
      await waitForSettled(world, budi, pending, 'Transaksi sukses');
      await recheck(world, clock, 2);
      await world.app.outbox.drain();
      expect(userSaw(budi, /Transaksi sukses/)).toEqual([pending]);
      expect(repliesTo(world, budi, pending)).toHaveLength(1);
      expect(userSaw(budi, notCharged)).toHaveLength(0);
    },
  );

  it('repeated refusals: exactly one "needs review" line to the operator, the user is told it is still being checked, and it still settles', async () => {
    await start();
    const ops = world.telegram.createGroup({ id: opsChatId, title: 'Operator', type: 'supergroup', members: [] });
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    const refId = sandboxTransactions(world)[0]?.refId ?? 'missing';

    refuseOnce(404, 'Produk tidak ditemukan', 6);
    await recheck(world, clock, 6);
    const review = await world.telegram.waitForBotMessage(ops, { textIncludes: 'Perlu diperiksa' });
    expect(review.text).toContain(refId);
    expect(review.text).toContain(String(budi.id));
    expect(review.text).toContain('Produk tidak ditemukan');
    expect((await world.app.db.transactions.find(refId))?.status).toBe('Pending');

    // The user's /cek: not final, still checked, the operator was told.
    refuseOnce(404, 'Produk tidak ditemukan');
    const answer = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${refId}`) });
    expect(answer.text).toContain('Status: ⏳ Pending');
    expect(answer.text).toContain('tetap dicek');
    expect(answer.text).toContain('operator');
    expect(answer.text).not.toMatch(notCharged);

    // The provider answers normally again and settles it.
    const final = await recheckUntilFinal(refId);
    expect(final?.status).toBe('Sukses');
    await waitForSettled(world, budi, pending, 'Transaksi sukses');
    refuseOnce(404, 'Produk tidak ditemukan', 3);
    await recheck(world, clock, 3);
    await world.app.outbox.drain();
    expect(world.telegram.botMessages(ops).filter((m) => m.text?.includes('Perlu diperiksa'))).toHaveLength(1);
    expect(userSaw(budi, notCharged)).toHaveLength(0);
  });

  it('refusals that keep coming past the horizon: Unresolved as usual, one review line, never "not charged"', async () => {
    await start({ env: { ADMIN_CHAT_ID: String(opsChatId), PENDING_HORIZON_HOURS: '1' } });
    const ops = world.telegram.createGroup({ id: opsChatId, title: 'Operator', type: 'supergroup', members: [] });
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    const refId = sandboxTransactions(world)[0]?.refId ?? 'missing';
    refuseOnce(402, 'Saldo tidak mencukupi', Infinity);
    // 6-minute steps: ten passes take it past the 1 h horizon.
    await recheck(world, clock, 11);
    await waitForSettled(world, budi, pending, 'Status belum pasti');
    expect((await world.app.db.transactions.find(refId))?.status).toBe('Unresolved');
    await world.app.outbox.drain();
    expect(world.telegram.botMessages(ops).filter((m) => m.text?.includes('Perlu diperiksa'))).toHaveLength(1);
    expect(userSaw(budi, notCharged)).toHaveLength(0);
  });

  it('a refusal on the very first send still means "not created": Rejected, not checked again', async () => {
    await start();
    const budi = await seedConnectedUser(world, 'Budi');
    // The sandbox answers an unknown product code with 404 and records nothing.
    const refId = await seedPurchase(world, budi, { code: 'NOPE10', productName: 'Tidak ada' });
    const stored = await world.app.db.transactions.find(refId);
    expect(stored?.status).toBe('Rejected');
    expect(stored?.message).toBe('not_found');
    expect(sandboxTransactions(world)).toHaveLength(0);
    await recheck(world, clock, 3);
    expect(transactionRequests(world, refId)).toBe(1);
  });
});
