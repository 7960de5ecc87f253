/**
 * /ekspor for a downline (DOWNLINES=true): after the transactions' CSV, their wallet statement of
 * the same days as a second CSV — every ledger entry with the balance after it, oldest first —
 * and nothing of the kind for a reseller without a wallet.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { waitForSummary } from '../helpers/buy.ts';
import { tsel10Cost, uplineAndDownline } from '../helpers/downline-world.ts';
import { periodRange } from '../../src/services/export-periods.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

let world: TestWorld;
afterEach(async () => {
  await world.stop();
});

/** The bytes of the document of `message`, as the playground's chat page loads them. */
async function documentText(message: EmulatedMessage): Promise<string> {
  const fileId = message.message.document?.file_id;
  if (fileId === undefined) throw new Error(`message ${message.messageId} has no document`);
  const response = await fetch(`${world.telegram.url}/playground/file/${encodeURIComponent(fileId)}`);
  return Buffer.from(await response.arrayBuffer()).toString('utf8');
}

const documents = (user: EmulatedUser) => world.telegram.botMessages(user).filter((m) => m.message.document !== undefined);

describe('/ekspor gains the wallet statement for a downline', () => {
  it('sends kiosbot-mutasi-<from>-<to>.csv with each entry and its running balance; an upline gets only the transactions', async () => {
    world = await startWorld({ jobs: true, env: { DOWNLINES: 'true' }, sandbox: { reseller: { instant: true } } });
    const { budi, sari } = await uplineAndDownline(world, { wallet: 50_000 });
    const summary = await waitForSummary(world, sari, sari.send('TSEL10.081234567890'));
    sari.tap(summary, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(sari, { after: summary, textIncludes: 'Sukses', timeoutMs: 10_000 });
    await world.app.services.wallets.adjust(budi.id, sari.id, -1_000, 'biaya admin; Desember', 'test-fee');
    const today = periodRange('today', new Date()).from;

    await world.telegram.waitForBotMessage(sari, { after: sari.send(`/ekspor ${today} ${today}`), textIncludes: 'Mutasi dompet' });
    const [transactions, statement, ...more] = documents(sari);
    expect(more).toEqual([]);
    expect(transactions?.message.document?.file_name).toBe(`kiosbot-${today}-${today}.csv`);
    expect(statement?.message.document?.file_name).toBe(`kiosbot-mutasi-${today}-${today}.csv`);
    expect(statement?.message.caption).toBe(
      `📜 Mutasi dompet: 4 entri, ${today} s.d. ${today} (WIB). Saldo awal Rp 0, masuk Rp 50.000, keluar Rp 11.950, saldo akhir Rp 38.050.`,
    );
    const lines = (await documentText(statement!)).slice(1).split('\r\n');
    expect(lines[0]).toBe('Waktu (WIB),Jenis,Jumlah,Saldo setelahnya,Ref ID,Keterangan');
    const [tx] = await world.app.db.transactions.listByUser(sari.id, { limit: 1 });
    const rows = lines.slice(1, -1).map((line) => line.replace(/^[^,]+,/, ''));
    expect(rows).toEqual([
      'Koreksi upline,50000,50000,,modal awal',
      `Pembelian,-${tsel10Cost + 500},${50_000 - tsel10Cost - 500},${tx!.refId},`,
      `Pembelian sukses,0,${50_000 - tsel10Cost - 500},${tx!.refId},`,
      `Koreksi upline,-1000,${49_000 - tsel10Cost - 500},,biaya admin; Desember`,
    ]);
    expect(lines.slice(1, -1).every((line) => line.startsWith(`${today} `))).toBe(true);
    expect(lines.at(-1)).toBe('');

    // The upline has no wallet: his /ekspor is his transactions alone (Sari's purchase is not his).
    await world.telegram.waitForBotMessage(budi, { after: budi.send(`/ekspor ${today} ${today}`), textIncludes: 'Tidak ada transaksi' });
    await world.idle();
    expect(documents(budi)).toEqual([]);
  });

  it("a downline with deposits but no purchase that period still gets the statement; another period's entries are left out", async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' } });
    const { sari } = await uplineAndDownline(world, { wallet: 20_000 });
    const today = periodRange('today', new Date()).from;
    await world.telegram.waitForBotMessage(sari, { after: sari.send(`/ekspor ${today} ${today} ;`), textIncludes: 'Mutasi dompet' });
    const [statement] = documents(sari);
    const text = await documentText(statement!);
    expect(text).toContain('Waktu (WIB);Jenis;Jumlah;Saldo setelahnya;Ref ID;Keterangan');
    expect(text).toContain(';Koreksi upline;20000;20000;;modal awal');

    await world.telegram.waitForBotMessage(sari, {
      after: sari.send('/ekspor 2026-01-01 2026-01-31'),
      textIncludes: 'Tidak ada transaksi',
    });
    await world.idle();
    expect(documents(sari)).toHaveLength(1);
  });
});
