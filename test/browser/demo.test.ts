/**
 * The offline demo in a real browser: `npm run demo`'s entry in a child process, its chat page in
 * headless Chromium. A reseller says /start, connects the demo reseller account with the demo
 * credentials, buys TSEL10 for 081234567890, confirms, and sees the Pending purchase settle into
 * a Sukses receipt. A screenshot of the chat is saved under test-artifacts/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { launchChromium, openChat } from './chat-page.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tsxLoader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

let demo: ChildProcess;
let demoOutput = '';
let demoExited: Promise<unknown>;
let pageUrl: string;
let browser: Browser;

beforeAll(async () => {
  demo = spawn(process.execPath, ['--import', tsxLoader, path.join(repoRoot, 'tools/demo/main.ts')], {
    cwd: repoRoot,
    // Free ports, so this runs beside anything else; purchases settle after 2 s.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SANDBOX_PORT: '0', PLAYGROUND_PORT: '0', SANDBOX_SETTLE_MS: '2000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  demoExited = new Promise((resolve) => demo.once('exit', resolve));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not get ready:\n${demoOutput}`)), 90_000);
    const read = (chunk: Buffer) => {
      demoOutput += chunk.toString();
      const url = /Open the chat page:\s+(\S+)/.exec(demoOutput)?.[1];
      if (url && demoOutput.includes('Ctrl+C stops everything')) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    demo.stdout!.on('data', read);
    demo.stderr!.on('data', read);
    void demoExited.then(() => reject(new Error(`the demo exited:\n${demoOutput}`)));
  });
  [pageUrl, browser] = await Promise.all([ready, launchChromium()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (demo && demo.exitCode === null) {
    demo.kill('SIGTERM');
    await demoExited;
  }
}, 30_000);

describe('npm run demo in a browser', () => {
  it('/start, connect the demo reseller, buy TSEL10.081234567890, Confirm: Pending settles into a Sukses receipt', async () => {
    const chat = await openChat(browser, pageUrl);
    const { apiId, apiKey } = resellerDemoAccounts.main;
    try {
      await chat.sendText('/start');
      await chat.waitForText('/connect', { fromBot: true });

      await chat.sendText('/hubungkan');
      await chat.waitForText('Pilih layanan', { fromBot: true });
      await chat.tapButton('Top-up reseller');
      await chat.waitForText('API ID', { fromBot: true });
      await chat.sendText(apiId);
      await chat.waitForText('API key', { fromBot: true });
      await chat.sendText(apiKey);
      await chat.waitForText('✅ Top-up reseller terhubung', { fromBot: true });

      await chat.sendText('TSEL10.081234567890');
      await chat.waitForText('081234567890', { fromBot: true });
      await chat.tapButton('Konfirmasi');
      const pending = await chat.waitForText(/Sedang diproses|Pending/, { fromBot: true, timeoutMs: 30_000 });
      expect(await pending.textContent()).toContain('081234567890');

      // The sandbox settles it after 2 s; the bot's watcher re-checks about every 10 s.
      const receipt = await chat.waitForText('Transaksi sukses', { fromBot: true, timeoutMs: 60_000 });
      expect(await receipt.textContent()).toMatch(/Telkomsel 10\.000[\s\S]*081234567890/);
      expect(await receipt.textContent()).toMatch(/SN/);
    } finally {
      await chat.screenshot('demo-purchase');
      await chat.context.close();
    }
  }, 120_000);
});
