/**
 * The fonts every PNG of kiosbot is drawn in, wherever npm put them: DejaVu Sans (regular and
 * bold) from the `dejavu-fonts-ttf` package for text, and Twemoji (colour, COLR) from the
 * `twemoji-colr-font` package for the emoji a user types into their shop name or footer. No
 * network, no system fonts: Skia draws no text without a font it was given, and a character that
 * no given font has comes out as a box.
 */
import { createRequire } from 'node:module';
import type * as Skia from '@napi-rs/canvas';

/** The text family's name (DejaVu Sans, registered under it). */
export const fontFamily = 'Kiosbot Sans';
const emojiFamily = 'Kiosbot Emoji';

/**
 * The families to name in a CSS font string: the text family first (so digits and letters keep
 * DejaVu's shapes), then the emoji font, which Skia falls back to for each character DejaVu lacks.
 */
export const fontStack = `"${fontFamily}", "${emojiFamily}"`;

const fontFiles: readonly { file: string; family: string }[] = [
  { file: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf', family: fontFamily },
  { file: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf', family: fontFamily },
  { file: 'twemoji-colr-font/twemoji.woff2', family: emojiFamily },
];

type Canvas = typeof Skia;
let loaded: Promise<Canvas> | undefined;

/**
 * @napi-rs/canvas with the families registered, loaded on the first drawing: Skia is a large native
 * module that start-up does not need (most processes never draw a picture). Rejects, naming the
 * file, if a font cannot be loaded (and tries again on the next call).
 */
export function loadCanvas(): Promise<Canvas> {
  loaded ??= (async () => {
    const canvas = await import('@napi-rs/canvas');
    const require = createRequire(import.meta.url);
    for (const { file: name, family } of fontFiles) {
      const file = require.resolve(name);
      if (!canvas.GlobalFonts.registerFromPath(file, family)) throw new Error(`A font could not be loaded from ${file}`);
    }
    return canvas;
  })().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}
