/**
 * The offline demo in a real browser: `npm run demo`'s entry in a child process, its chat page in
 * headless Chromium. A reseller (the demo's upline, connected to the demo reseller account when
 * the demo starts) says /start, connects that account anew from the main menu with the demo
 * credentials, buys Telkomsel 10.000 for 081234567890 by taps (category, brand,
 * product), confirms, and sees the Pending message settle into one Sukses receipt; then downloads
 * that purchase as the /ekspor CSV and posts a price card through an inline query typed in the
 * message box. Then, with a sell price and /pantau on, the sandbox raises TSEL10's cost; once the
 * digest arrives a quick-buy's summary, its receipt, /laporan and the CSV all show the new cost.
 * A screenshot of the chat is saved under test-artifacts/ after each run.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { launchChromium, openChat } from './chat-page.ts';
import { spawnBot, tsxLoader, type BotProcess } from '../helpers/bot-process.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

let demo: BotProcess;
let pageUrl: string;
let browser: Browser;

beforeAll(async () => {
  // Free ports, so this runs beside anything else; purchases settle after 2 s.
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

describe('npm run demo in a browser', () => {
  it('/start, connect anew from the main menu, buy by taps only: the Pending message settles into one Sukses receipt', async () => {
    const chat = await openChat(browser, pageUrl);
    const { apiId, apiKey } = resellerDemoAccounts.main;
    try {
      await chat.sendText('/start');
      await chat.waitForText('Akun provider Anda sudah terhubung', { fromBot: true });

      // Connect from the main menu: ⚙️ Pengaturan → 🔗 Hubungkan akun → the service → replace; the credentials are typed.
      await chat.tapButton('⚙️ Pengaturan');
      await chat.waitForText('Akun & pengaturan', { fromBot: true });
      await chat.tapButton('Hubungkan akun');
      await chat.waitForText('Pilih layanan', { fromBot: true });
      await chat.tapButton('Top-up reseller');
      await chat.waitForText('sudah terhubung (', { fromBot: true });
      await chat.tapButton('Ganti kredensial');
      await chat.waitForText('API ID', { fromBot: true });
      await chat.sendText(apiId);
      await chat.waitForText('API key', { fromBot: true });
      await chat.sendText(apiKey);
      await chat.waitForText('✅ Top-up reseller terhubung', { fromBot: true });

      // Buy by taps: 🛒 Beli → category → brand → product; the first purchase has no earlier number to offer.
      await chat.tapButton('🛒 Beli');
      await chat.waitForText('pilih kategori', { fromBot: true });
      await chat.tapButton(/^📱 Pulsa/);
      await chat.waitForText('pilih brand', { fromBot: true });
      await chat.tapButton(/^Telkomsel \(/);
      await chat.waitForText('pilih produk', { fromBot: true });
      await chat.tapButton(/^Telkomsel 10\.000 · Rp/);
      await chat.waitForText('nomor HP', { fromBot: true });
      await chat.sendText('081234567890');
      await chat.waitForText('Konfirmasi', { fromBot: true });
      await chat.tapButton('Konfirmasi');
      const pending = await chat.waitForText(/Sedang diproses/, { fromBot: true, timeoutMs: 30_000 });
      expect(await pending.textContent()).toContain('081234567890');

      // The sandbox settles it after 2 s; the demo bot re-checks every 2 s. The message
      // that said "in process" becomes the receipt, and a one-line reply pings.
      await chat.waitForText(/· Sukses/, { fromBot: true, timeoutMs: 60_000 });
      // (The ping quotes the receipt's first lines; the Ref ID is in the receipt itself only.)
      const receipts = chat.page.locator('#messages .msg:not(.mine)').filter({ hasText: 'Ref ID' });
      expect(await receipts.count()).toBe(1);
      expect(await receipts.first().textContent()).toMatch(/Telkomsel 10\.000[\s\S]*081234567890[\s\S]*SN/);
      expect(await chat.page.locator('#messages .msg').filter({ hasText: 'Sedang diproses' }).count()).toBe(0);
    } finally {
      await chat.screenshot('demo-purchase');
      await chat.context.close();
    }
  }, 120_000);

  // Goes on from the purchase above (same demo, same user).
  it('/ekspor: the CSV downloads with the purchase in it; @bot tsel 10 lists prices and sends the chosen card', async () => {
    const chat = await openChat(browser, pageUrl);
    try {
      // The page opens on the chat so far.
      await chat.waitForText(/· Sukses/, { fromBot: true, timeoutMs: 3000 });
      await chat.sendText('/ekspor 2020-01-01 2099-12-31');
      const exported = await chat.waitForText('1 transaksi', { fromBot: true, timeoutMs: 30_000 });
      const [download] = await Promise.all([chat.page.waitForEvent('download'), exported.getByRole('link', { name: /\.csv$/ }).click()]);
      expect(download.suggestedFilename()).toMatch(/^kiosbot-.*\.csv$/);
      expect(await readFile(await download.path(), 'utf8')).toMatch(/TSEL10[\s\S]*081234567890/);

      const box = chat.page.locator('#text');
      await box.click();
      await box.pressSequentially('@kiosbot_test_bot tsel 10');
      await chat.page.locator('#inline .result', { hasText: 'Telkomsel 10.000' }).first().click({ timeout: 30_000 });
      const card = await chat.waitForText(/Telkomsel 10\.000[\s\S]*Rp/, { fromBot: false });
      expect(await card.textContent()).not.toContain('@kiosbot_test_bot');
    } finally {
      await chat.screenshot('demo-export-inline');
      await chat.context.close();
    }
  }, 120_000);

  // Goes on from the purchase above (at Rp 10.450, no sell price). The demo checks watched price
  // lists once a minute from its start, so the digest takes up to a minute: the longest wait here.
  it('/pantau on, TSEL10 raised to Rp 10.600: after the digest the summary, the receipt, /laporan and the CSV all use the new cost', async () => {
    const chat = await openChat(browser, pageUrl);
    const target = '081234567812';
    try {
      // A fixed sell price, so the margin shows which cost was used: Rp 11.000 - 10.600 = +400 (not +550).
      await chat.sendText('/jual');
      await chat.waitForText('Harga jual', { fromBot: true });
      await chat.tapButton('📦 Per produk');
      await chat.waitForText('Ketik markup per produk', { fromBot: true });
      await chat.sendText('TSEL10 =11000');
      await chat.waitForText('Aturan harga jual disimpan', { fromBot: true });

      // Subscribing answers once the starting point (Rp 10.450) is taken.
      await chat.sendText('/pantau on');
      await chat.waitForText('🔔 Aktif', { fromBot: true });
      const control = /curl -X PATCH (\S+)\/TSEL10 /.exec(demo.output)?.[1];
      expect(control, 'the banner shows how to change a price').toBeDefined();
      const raised = await fetch(`${control}/TSEL10`, { method: 'PATCH', body: JSON.stringify({ price: 10_600 }) });
      expect(raised.status).toBe(200);
      // The next pass reports it (a pass between the answer and the change reports it one minute later).
      const digest = await chat.waitForText(/Perubahan harga/, { fromBot: true, timeoutMs: 150_000 });
      expect(await digest.textContent()).toMatch(/TSEL10[^•]*Rp 10\.450 → Rp 10\.600/);

      await chat.sendText(`TSEL10.${target}`);
      const summary = await chat.waitForText(new RegExp(`Ringkasan pembelian[\\s\\S]*${target}`), { fromBot: true });
      expect(await summary.textContent()).toContain('Modal → jual: Rp 10.600 → Rp 11.000 (+400)');
      await chat.tapButton('Konfirmasi');
      const receipt = chat.page
        .locator('#messages .msg:not(.mine)')
        .filter({ hasText: 'Ref ID' })
        .filter({ hasText: target })
        .filter({ hasText: /Status: \S+ Sukses/ });
      await receipt.waitFor({ timeout: 60_000 });
      expect(await receipt.textContent()).toContain('Modal → jual: Rp 10.600 → Rp 11.000 (+400)');

      // Both purchases: cost 10.450 + 10.600, sold at 10.450 (no sell price then) + 11.000.
      await chat.sendText('/laporan 2020-01-01 2099-12-31');
      const report = await chat.waitForText('Laporan 2020-01-01', { fromBot: true, timeoutMs: 30_000 });
      const reportText = (await report.textContent()) ?? '';
      expect(reportText).toContain('Sukses: 2');
      expect(reportText).toContain('Omzet (harga modal): Rp 21.050');
      expect(reportText).toContain('Margin: +400');

      await chat.sendText('/ekspor 2020-01-01 2099-12-31');
      const exported = await chat.waitForText('2 transaksi', { fromBot: true, timeoutMs: 30_000 });
      const [download] = await Promise.all([chat.page.waitForEvent('download'), exported.getByRole('link', { name: /\.csv$/ }).click()]);
      const [header = [], ...rows] = (await readFile(await download.path(), 'utf8'))
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .map((line) => line.split(','));
      const row = rows.find((fields) => fields.includes(target)) ?? [];
      const column = (name: string) => row[header.indexOf(name)];
      expect([column('Modal'), column('Harga jual'), column('Margin (Sukses)')]).toEqual(['10600', '11000', '400']);
    } finally {
      await chat.screenshot('demo-price-change');
      await chat.context.close();
    }
  }, 240_000);
});
