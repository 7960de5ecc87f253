/**
 * Driving the playground's chat page in real headless Chromium (Debian's /usr/bin/chromium,
 * through playwright-core) the way a person does: type and press Enter, tap a button by its
 * label, wait until a text shows up. Every wait is on a page condition with a timeout, never a
 * fixed sleep.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const artifactsDir = path.resolve(import.meta.dirname, '../../test-artifacts');

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath))
    throw new Error(`No Chromium at ${chromiumPath}: install Debian's (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH.`);
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

export interface ChatPage {
  page: Page;
  context: BrowserContext;
  /** Types `text` into the message box and presses Enter (Shift+Enter for each line break). */
  sendText(text: string): Promise<void>;
  /** Taps the newest button labelled `label` (an inline button of a message, or the reply keyboard). */
  tapButton(label: string | RegExp): Promise<void>;
  /** Resolves with the newest message bubble containing `text` once it shows. */
  waitForText(text: string | RegExp, options?: { timeoutMs?: number; fromBot?: boolean }): Promise<Locator>;
  /** Switches to the user named `name` with the page's user buttons ("You are"): their private chat shows. */
  switchUser(name: string): Promise<void>;
  /** Saves a full-page screenshot as test-artifacts/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
}

/** Opens `url` in a new context (clipboard allowed) and waits until the page shows its user. */
export async function openChat(browser: Browser, url: string, options: { defaultTimeoutMs?: number } = {}): Promise<ChatPage> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  page.setDefaultTimeout(options.defaultTimeoutMs ?? 15_000);
  await page.goto(url);
  await page.locator('#user option').first().waitFor({ state: 'attached' });

  const bubbles = (fromBot?: boolean) =>
    page.locator(fromBot === undefined ? '#messages .msg' : fromBot ? '#messages .msg:not(.mine)' : '#messages .msg.mine');
  return {
    page,
    context,
    async sendText(text) {
      const box = page.locator('#text');
      await box.click();
      const lines = text.split('\n');
      for (const [index, line] of lines.entries()) {
        if (index > 0) await box.press('Shift+Enter');
        await box.pressSequentially(line);
      }
      await box.press('Enter');
      // Sent once the box is empty again and the message is in the chat.
      await page.waitForFunction('document.getElementById("text").value === ""');
    },
    async tapButton(label) {
      const button = page.locator('#messages .msg:not(.deleted) .kb button, #replyKb button').filter({ hasText: label }).last();
      // The page redraws the chat when a message changes; a redraw between the press and the release
      // loses the click (nothing is sent). A tap counts once the page posted it; a lost one is tapped again.
      // A copy button copies on the page and posts nothing.
      if ((await button.getAttribute('data-copy')) !== null) return void (await button.click());
      for (let attempt = 1; ; attempt++) {
        const posted = page
          .waitForRequest((request) => /\/playground\/(tap|send)$/.test(new URL(request.url()).pathname), { timeout: 3000 })
          .then(
            () => true,
            () => false,
          );
        await button.click();
        if (await posted) return;
        if (attempt === 3) throw new Error(`tapping "${String(label)}" sent nothing, three times`);
      }
    },
    async waitForText(text, { timeoutMs, fromBot } = {}) {
      const bubble = bubbles(fromBot).filter({ hasText: text }).last();
      await bubble.waitFor({ state: 'visible', ...(timeoutMs ? { timeout: timeoutMs } : {}) });
      return bubble;
    },
    async switchUser(name) {
      const named = (buttons: Locator) => buttons.filter({ has: page.locator('.name').getByText(name, { exact: true }) });
      await named(page.locator('#userSwitch button')).click();
      await named(page.locator('#userSwitch button.active')).waitFor();
      await page
        .locator('#subtitle')
        .filter({ hasText: `you are ${name}` })
        .waitFor();
    },
    async screenshot(name) {
      await mkdir(artifactsDir, { recursive: true });
      const file = path.join(artifactsDir, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
  };
}
