/**
 * The one font family every PNG of kiosbot is drawn in: DejaVu Sans (regular and bold) from the
 * `dejavu-fonts-ttf` npm package, wherever npm put it. No network, no system fonts: Skia draws no
 * text without a font it was given.
 */
import { createRequire } from 'node:module';
import { GlobalFonts } from '@napi-rs/canvas';

export const fontFamily = 'Kiosbot Sans';
let registered = false;

/** Registers the family once per process; throws, naming the file, if a font cannot be loaded. */
export function ensureFonts(): void {
  if (registered) return;
  const require = createRequire(import.meta.url);
  for (const name of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']) {
    const file = require.resolve(`dejavu-fonts-ttf/ttf/${name}`);
    if (!GlobalFonts.registerFromPath(file, fontFamily)) throw new Error(`A font could not be loaded from ${file}`);
  }
  registered = true;
}
