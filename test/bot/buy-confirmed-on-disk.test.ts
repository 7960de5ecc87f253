/**
 * "Confirmed" is said only once the confirmation is on disk, and a Confirm replayed after a crash
 * (its purchase already recorded) neither buys twice nor leaves the user guessing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, eventually, sandboxTransactions, waitForResult, waitForSummary } from '../helpers/buy.ts';

describe('buy: the confirmation is on disk before the user is told "confirmed"', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  /**
   * Holds back the answer of the store write that records a confirmation, as a slow disk would:
   * the change is made, but the caller hears "written" only when `release` is called.
   */
  function holdConfirmWrite(target: TestWorld) {
    const repo = target.app.db.transactions;
    const original = repo.createMany.bind(repo);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const state = { called: false, written: false };
    repo.createMany = async (...args) => {
      state.called = true;
      const result = await original(...args);
      await gate;
      state.written = true;
      return result;
    };
    return { state, release: () => release() };
  }

  it('while the write is held back the summary only says it is being checked; "Dikonfirmasi" comes after the write', async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890\nTSEL10.081234567891\nTSEL10.081234567892'));
    const held = holdConfirmWrite(world);

    budi.tap(summary, '✅ Konfirmasi');
    await world.telegram.waitFor(() => held.state.called, { message: 'the confirmation was never recorded' });
    // The write is under way: the buttons are gone, but nothing says confirmed and nothing was sent.
    expect(summary.text).not.toContain('Dikonfirmasi');
    expect(summary.text).toContain('Sedang diperiksa');
    expect(summary.buttons).toEqual([]);
    expect(world.telegram.botMessages(budi).some((m) => (m.text ?? '').includes('Mengirim'))).toBe(false);
    expect(sandboxTransactions(world)).toHaveLength(0);

    // The moment the summary first says "Dikonfirmasi", the write must have been reported done.
    const confirmedSeen = world.telegram.waitFor(() =>
      (summary.text ?? '').includes('Dikonfirmasi') ? { written: held.state.written } : undefined,
    );
    held.release();
    expect(await confirmedSeen).toEqual({ written: true });
    await waitForResult(world, budi, summary, 'Hasil 3 transaksi');
    expect(sandboxTransactions(world)).toHaveLength(3);
  });

  it('a Confirm replayed after a crash that came after the record: same transactions, not bought again, and the user is told why', async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890\nTSEL10.081234567891'));
    // What a crash right after the record leaves on disk: the conversation still waiting for the tap.
    const key = `${budi.id}:${budi.id}`;
    await eventually(async () => (await world.app.db.conversations.read(key)) !== undefined);
    const waitingForTap = await world.app.db.conversations.read(key);

    const tap = budi.tap(summary, '✅ Konfirmasi');
    const first = await waitForResult(world, budi, summary, 'Hasil 2 transaksi');
    expect(sandboxTransactions(world)).toHaveLength(2);
    const debits = world.sandbox.received.filter((r) => r.path === '/transaction').length;

    // The conversation is over once its state is gone; then put back what the crash would have left.
    await eventually(async () => (await world.app.db.conversations.read(key)) === undefined);
    await world.app.db.conversations.write(key, waitingForTap);
    const update = world.telegram.updates.find((u) => u.callback_query?.id === tap.id);
    expect(update).toBeDefined();
    await world.app.updates.handle(update!);

    // A new message says why it comes again, then shows the (same) result.
    const second = world.telegram.botMessages(budi).find((m) => m.messageId > first.messageId);
    expect(second?.history[0]?.text).toContain('sudah tercatat');
    expect(second?.text).toContain('Hasil 2 transaksi');
    // Same two transactions on the provider; any request sent again reused their ref ids.
    expect(sandboxTransactions(world)).toHaveLength(2);
    const refIds = new Set(
      world.sandbox.received.filter((r) => r.path === '/transaction').map((r) => (r.body as { ref_id: string }).ref_id),
    );
    expect(refIds.size).toBe(2);
    expect(world.sandbox.received.filter((r) => r.path === '/transaction').length).toBeGreaterThanOrEqual(debits);
    expect(second?.text).toContain('Sukses');
    expect(summary.text).toContain('Dikonfirmasi');
  });
});
