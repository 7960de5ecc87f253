import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { marketplaceDemoAccounts } from '../../tools/sandbox/marketplace.ts';

/** The item buttons of an /items page: `n. name`. */
const itemButtons = (message: EmulatedMessage) => message.buttons.flat().filter((text) => /^\d+\. /.test(text));

/** URL buttons of a message: text → url. */
function urlButtons(message: EmulatedMessage): Record<string, string> {
  const buttons = (message.inlineKeyboard?.inline_keyboard ?? []).flat();
  return Object.fromEntries(buttons.flatMap((button) => ('url' in button && button.url ? [[button.text, button.url]] : [])));
}

describe('marketplace item details: video preview', () => {
  let world: TestWorld;
  let rizky: EmulatedUser;
  afterEach(async () => {
    await world.stop();
  });

  /** Opens /produk, goes to page `page` and taps the item whose button contains `name`. */
  async function openItem(page: number, name: string): Promise<EmulatedMessage> {
    const list = await world.telegram.waitForBotMessage(rizky, { after: rizky.send('/produk') });
    for (let p = 2; p <= page; p += 1) {
      rizky.tap(list, 'Berikutnya ›');
      await world.telegram.waitFor(() => list.text?.includes(`halaman ${p}/`));
    }
    const button = itemButtons(list).find((text) => text.includes(name));
    expect(button, `no "${name}" on page ${page}: ${JSON.stringify(list.buttons)}`).toBeDefined();
    rizky.tap(list, button!);
    return world.telegram.waitForBotMessage(rizky, { after: list });
  }

  it('a video template shows its video preview link and a watch button; an item without one shows neither', async () => {
    world = await startWorld();
    rizky = world.telegram.createUser({ firstName: 'Rizky', languageCode: 'id' });
    await world.app.services.credentials.verifyAndSave(rizky.id, 'marketplace', { apiKey: marketplaceDemoAccounts.main.apiKey });

    const video = await openItem(3, 'Dynamic Slideshow Opener');
    expect(video.text).toContain('Dynamic Slideshow Opener');
    expect(video.text).toContain('Pratinjau video: https://cdn.example.com/items/48212/preview.mp4');
    expect(urlButtons(video)['🎬 Tonton pratinjau']).toBe('https://cdn.example.com/items/48212/preview.mp4');
    // The preview image is still the photo.
    expect(world.telegram.callsTo('sendPhoto').at(-1)?.params.photo).toBe('https://cdn.example.com/items/48212/preview.jpg');

    const plain = await openItem(1, 'Kopi');
    expect(plain.text).toContain('Kopi - Coffee Shop');
    expect(plain.text).not.toContain('Pratinjau video');
    expect(Object.keys(urlButtons(plain))).not.toContain('🎬 Tonton pratinjau');
  });

  it('in English too', async () => {
    world = await startWorld();
    rizky = world.telegram.createUser({ firstName: 'Jane', languageCode: 'en' });
    await world.app.services.credentials.verifyAndSave(rizky.id, 'marketplace', { apiKey: marketplaceDemoAccounts.main.apiKey });
    const list = await world.telegram.waitForBotMessage(rizky, { after: rizky.send('/items') });
    rizky.tap(list, 'Next ›');
    await world.telegram.waitFor(() => list.text?.includes('page 2/'));
    rizky.tap(list, 'Next ›');
    await world.telegram.waitFor(() => list.text?.includes('page 3/'));
    rizky.tap(
      list,
      itemButtons(list).find((text) => text.includes('Minimal Logo Reveal'))!,
    );
    const details = await world.telegram.waitForBotMessage(rizky, { after: list });
    expect(details.text).toContain('Video preview: https://cdn.example.com/items/48213/preview.mp4');
    expect(urlButtons(details)['🎬 Watch preview']).toBe('https://cdn.example.com/items/48213/preview.mp4');
  });
});
