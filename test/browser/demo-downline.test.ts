/**
 * The demo's downline in a real browser (issue #31): `npm run demo` seeds Budi as an upline and
 * Sari as his downline at Silver with Rp 25.000; one page switches between the two with its user
 * buttons, as a newcomer does. Sari asks for a deposit, Budi accepts the ticket with ✅ Terima,
 * Sari is told the credit and /saldo shows the new balance. Then she buys Telkomsel 10.000 with a
 * quick-buy line at her level's price (Budi's cost Rp 10.450 + Rp 500), debited from her wallet
 * once it settles Sukses, and a purchase for a target the sandbox fails is refunded: the balance
 * is back.
 * A screenshot of the chat is saved under test-artifacts/ after each run.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openChat, type ChatPage } from './chat-page.ts';
import { spawnBot, tsxLoader, type BotProcess } from '../helpers/bot-process.ts';
import { demoDownline } from '../../tools/demo/seed.ts';
import { resellerDemoProducts } from '../../tools/sandbox/reseller.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

let demo: BotProcess;
let pageUrl: string;
let browser: Browser;

beforeAll(async () => {
  // Free ports, so this runs beside the other demo test; purchases settle after 2 s.
  demo = spawnBot({ HOME: process.env.HOME ?? '', SANDBOX_PORT: '0', PLAYGROUND_PORT: '0', SANDBOX_SETTLE_MS: '2000' }, repoRoot, [
    '--import',
    tsxLoader,
    path.join(repoRoot, 'tools/demo/main.ts'),
  ]);
  const pagePattern = /Open the chat page:\s+(\S+)/;
  const ready = demo
    .waitForOutput((output) => pagePattern.test(output) && output.includes('Ctrl+C stops everything'), 90_000)
    .then(() => pagePattern.exec(demo.output)?.[1] ?? '');
  [pageUrl, browser] = await Promise.all([ready, launchChromium()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await demo?.stop('SIGTERM');
}, 30_000);

/** "Rp 50.127" → 50127. */
const rupiahValue = (text: string): number => Number(text.replace(/^Rp\s*/, '').replace(/\./g, ''));
const rupiah = (n: number): string => `Rp ${n.toLocaleString('id-ID')}`;

/** Sends /saldo and waits for its answer (a new one, not an earlier /saldo's) to show `balance`. */
async function saldoShows(chat: ChatPage, balance: number): Promise<void> {
  const answers = chat.page.locator('#messages .msg:not(.mine)').filter({ hasText: 'Saldo deposit Anda' });
  const before = await answers.count();
  await chat.sendText('/saldo');
  await answers.nth(before).waitFor();
  expect(await answers.nth(before).textContent()).toContain(`Saldo deposit Anda: ${rupiah(balance)}`);
}

/** Sari's wallet after the deposit of the first test (the second goes on from it). */
let walletAfterDeposit: number | undefined;

describe('npm run demo: the upline and the downline on one page', () => {
  it('the downline asks for a deposit, the upline taps ✅ Terima, the downline sees the credit and /saldo', async () => {
    const chat = await openChat(browser, pageUrl);
    try {
      expect(demo.output).toContain('is your downline at Silver');
      // The page opens as the first user, Budi; he was told of Sari's join when the bot started.
      await chat.waitForText('Sari (@sari) bergabung sebagai downline Anda', { fromBot: true, timeoutMs: 30_000 });

      await chat.switchUser('Sari');
      await chat.waitForText('menambah saldo Anda Rp 25.000 (saldo awal demo)', { fromBot: true });
      await chat.sendText('/deposit 50000');
      const ticket = await chat.waitForText('Tiket deposit', { fromBot: true });
      const ticketText = (await ticket.textContent()) ?? '';
      const total = /Transfer tepat (Rp [\d.]+)/.exec(ticketText)?.[1];
      expect(total, ticketText).toBeDefined();
      const amount = rupiahValue(total!);
      expect(amount).toBeGreaterThan(50_000);
      expect(amount).toBeLessThan(51_000);
      expect(ticketText).toContain('BCA 1234567890');

      await chat.switchUser('Budi');
      const request = await chat.waitForText(`Tiket deposit dari Sari`, { fromBot: true });
      expect(await request.textContent()).toContain(total!);
      await chat.tapButton('✅ Terima');
      const balance = rupiah(25_000 + amount);
      await chat.waitForText(`Saldo downline sekarang ${balance}`, { fromBot: true });

      await chat.switchUser('Sari');
      await chat.waitForText(`Deposit ${total!} diterima oleh Budi`, { fromBot: true });
      await chat.sendText('/saldo');
      const saldo = await chat.waitForText('Saldo deposit Anda', { fromBot: true });
      expect(await saldo.textContent()).toContain(balance);
      walletAfterDeposit = 25_000 + amount;
    } finally {
      await chat.screenshot('demo-downline-deposit');
      await chat.context.close();
    }
  }, 90_000);

  // Goes on from the deposit above (same demo, same users).
  it('the downline buys with a quick-buy line at the Silver price from the wallet; a failed purchase is refunded', async () => {
    expect(walletAfterDeposit, 'the deposit test ran first').toBeDefined();
    const start = walletAfterDeposit!;
    const cost = resellerDemoProducts.find((p) => p.code === 'TSEL10')!.price;
    const price = cost + demoDownline.markupRupiah;
    const chat = await openChat(browser, pageUrl);
    try {
      await chat.switchUser('Sari');
      // Sukses: the summary shows her level price and her wallet; the price is taken once.
      await chat.sendText('TSEL10.081234567890');
      const summary = await chat.waitForText(/Ringkasan pembelian[\s\S]*081234567890/, { fromBot: true });
      const summaryText = (await summary.textContent()) ?? '';
      expect(summaryText).toContain(rupiah(price));
      expect(summaryText).toContain(`Saldo dompet Anda: ${rupiah(start)}`);
      expect(summaryText).not.toContain(rupiah(cost));
      await chat.tapButton('Konfirmasi');
      const receipt = chat.page
        .locator('#messages .msg:not(.mine)')
        .filter({ hasText: 'Ref ID' })
        .filter({ hasText: '081234567890' })
        .filter({ hasText: /Status: \S+ Sukses/ });
      await receipt.waitFor({ timeout: 60_000 });
      expect(await receipt.textContent()).toContain(rupiah(price));
      const afterSukses = start - price;
      await saldoShows(chat, afterSukses);

      // Gagal (the sandbox fails a target ending in 0000): held while Pending, then refunded.
      await chat.sendText('TSEL10.081234560000');
      await chat.waitForText(/Ringkasan pembelian[\s\S]*081234560000/, { fromBot: true });
      await chat.tapButton('Konfirmasi');
      await chat.waitForText('Transaksi gagal — Telkomsel 10.000 081234560000. Saldo dompet Anda sudah dikembalikan.', {
        fromBot: true,
        timeoutMs: 60_000,
      });
      await saldoShows(chat, afterSukses);
      await chat.sendText('/mutasi');
      const statement = await chat.waitForText('Mutasi saldo', { fromBot: true });
      expect(await statement.textContent()).toMatch(/Pengembalian[\s\S]*Pembelian/);
      // Nothing on Sari's page shows Budi's cost.
      expect(await chat.page.locator('#messages').textContent()).not.toContain(rupiah(cost));
    } finally {
      await chat.screenshot('demo-downline-buy');
      await chat.context.close();
    }
  }, 120_000);
});
