/**
 * The one font family every PNG of kiosbot is drawn in: DejaVu Sans (regular and bold) from the
 * `dejavu-fonts-ttf` npm package, wherever npm put it. No network, no system fonts: Skia draws no
 * text without a font it was given.
 */
import { createRequire } from 'node:module';
import type * as Skia from '@napi-rs/canvas';

export const fontFamily = 'Kiosbot Sans';

type Canvas = typeof Skia;
let loaded: Promise<Canvas> | undefined;

/**
 * @napi-rs/canvas with the family registered, loaded on the first drawing: Skia is a large native
 * module that start-up does not need (most processes never draw a picture). Rejects, naming the
 * file, if a font cannot be loaded (and tries again on the next call).
 */
export function loadCanvas(): Promise<Canvas> {
  loaded ??= (async () => {
    const canvas = await import('@napi-rs/canvas');
    const require = createRequire(import.meta.url);
    for (const name of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']) {
      const file = require.resolve(`dejavu-fonts-ttf/ttf/${name}`);
      if (!canvas.GlobalFonts.registerFromPath(file, fontFamily)) throw new Error(`A font could not be loaded from ${file}`);
    }
    return canvas;
  })().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}
