import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';

/*
 * Accepting a deposit is two commits: the decision on the upline's record, then the credit under
 * `deposit:<id>`. When the credit does not happen after the decision (the process dies, or the
 * credit's write fails and the update is answered with an error), the next start credits it, or
 * on an instance that lives on the next pass: once, the downline told once, and a later tap or a
 * re-delivered update adds nothing.
 */

describe('a deposit accepted but not credited (DOWNLINES=true)', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  /** Budi's downline Sari asks for Rp 100.000; Budi taps ✅ Terima and the credit's write fails once after the decision is stored. */
  const acceptedNotCredited = async () => {
    world = await startWorld({ jobs: true, env: { DOWNLINES: 'true' }, app: { outboxLimits: { perChatMs: 20 } } });
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Level' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline auto nyala'), textIncludes: 'nyala' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/carabayar BCA 1234567890 a.n. Budi'), textIncludes: 'disimpan' });
    const made = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline undang'), textIncludes: 'Link undangan baru' });
    const payload = /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec(made.text ?? '')?.[1] ?? '';
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    await world.telegram.waitForBotMessage(sari, { after: sari.send(`/start ${payload}`), textIncludes: 'Anda sekarang downline' });
    const ticket = await world.telegram.waitForBotMessage(sari, { after: sari.send('/deposit 100000'), textIncludes: 'Tiket deposit' });
    const total = Number(/Transfer tepat Rp ([\d.]+)/.exec(ticket.text ?? '')?.[1]?.replace(/\./g, ''));
    const request = await world.telegram.waitForBotMessage(budi, { textIncludes: 'Tiket deposit dari Sari' });

    // The credit's write fails once, after the decision is stored (as a disk full or a lost connection would).
    // Every credit's write fails (as on a full disk or with the database away) until `writesWork()`.
    const ledger = world.app.db.ledger;
    const append = ledger.append.bind(ledger);
    let failing = true;
    let failed = 0;
    ledger.append = async (entries, options) => {
      if (failing && entries.some((entry) => entry.kind === 'deposit')) {
        failed += 1;
        throw new Error('ENOSPC: no space left on device');
      }
      return append(entries, options);
    };
    const tap = budi.tap(request, '✅ Terima');
    await world.telegram.waitForCallbackAnswer(tap).catch(() => undefined);
    await world.idle();
    expect(failed).toBeGreaterThanOrEqual(1);
    const desk = (await world.app.db.users.get(budi.id))?.depositDesk;
    expect(desk?.requests.find((r) => r.downlineId === sari.id)?.status).toBe('accepted');
    expect(await world.app.db.ledger.balance(sari.id)).toBe(0);

    const writesWork = () => (failing = false);
    return { budi, sari, request, total, writesWork };
  };

  it('is credited at the next start, exactly once; a later tap and a re-delivery credit nothing more', async () => {
    const { budi, sari, request, total } = await acceptedNotCredited();
    await world.restart();
    for (let waited = 0; (await world.app.db.ledger.balance(sari.id)) !== total; waited += 10) {
      if (waited > 5000) throw new Error('the accepted deposit was not credited after the restart');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'diterima oleh Budi' });

    // A later tap on the same message, and the same tap delivered again: nothing more.
    const late = budi.tap(request, '✅ Terima');
    expect((await world.telegram.waitForCallbackAnswer(late)).text).toContain('sudah diterima');
    world.telegram.redeliver(world.telegram.updates.at(-1)!);
    await world.restart();
    await world.idle();
    await world.app.outbox.drain();
    expect(await world.app.db.ledger.statement(sari.id)).toMatchObject([{ kind: 'deposit', amount: total, balance: total }]);
    const told = world.telegram.botMessages(sari).filter((m) => (m.text ?? '').includes('diterima oleh Budi'));
    expect(told).toHaveLength(1);
  });

  it('on an instance that lives on (a fleet), is credited by a later pass, without a restart: once, told once', async () => {
    // The pass is the deposit-credits job's (its schedule: test/jobs/scheduler.test.ts), run here by hand.
    const { sari, total, writesWork } = await acceptedNotCredited();
    const pass = () => world.app.services.wallets.finishAccepted();
    // While the credit's write still fails, a pass fails too (the job logs it) and credits nothing.
    await expect(pass()).rejects.toThrow('ENOSPC');
    expect(await world.app.db.ledger.balance(sari.id)).toBe(0);
    writesWork();
    expect(await pass()).toEqual({ credited: 1, refused: [] });
    expect(await world.app.db.ledger.balance(sari.id)).toBe(total);
    // Later passes find it credited.
    expect(await pass()).toEqual({ credited: 0, refused: [] });
    await world.app.outbox.drain();
    expect(await world.app.db.ledger.statement(sari.id)).toMatchObject([{ kind: 'deposit', amount: total, balance: total }]);
    const told = world.telegram.botMessages(sari).filter((m) => (m.text ?? '').includes('diterima oleh Budi'));
    expect(told).toHaveLength(1);
  });
});
