/**
 * `npm run build`: bundles the bot and its operator commands with esbuild, every package included
 * except @napi-rs/canvas (a native addon, loaded only when a receipt card is drawn). One file per
 * entry point starts faster than Node resolving and linking some 400 modules of node_modules: a
 * start of the built bot costs about a third less CPU than with packages external (README
 * "Production"). test/e2e/build-once.ts builds the e2e project's copy with the same options.
 *
 * Start-up reads, decodes and compiles all of an entry point's file before it runs a line, so the
 * bundle carries no more than a start needs: comments and whitespace are left out (most of the
 * packages' text is JSDoc, whose few non-ASCII characters made Node decode the whole file as
 * UTF-16), and what is imported only on demand (Chart.js and QR codes, for the first
 * picture) is split into chunk files beside the entry points, read when first drawn. Function and
 * class names are kept, so a stack trace still names them; `main.mjs.map` maps its positions back
 * to the sources (`node --enable-source-maps dist/src/bot/main.mjs`).
 *
 *   tsx tools/build.ts --outdir=dist/src/bot   (empties the directory first: no stale chunks)
 *
 * The bundle still needs `node_modules` beside it (the canvas addon, the DejaVu fonts that
 * src/render/fonts.ts resolves) and `locales/` two directories above it (src/bot/i18n.ts).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/** The entry points of `npm run build`: src/main.ts → main.mjs, src/ops/backup.ts → ops/backup.mjs, … */
export const builtEntries = ['src/main.ts', 'src/ops/backup.ts', 'src/ops/restore.ts', 'src/ops/rotate-key.ts', 'src/ops/migrate-store.ts'];

/**
 * Bundled CommonJS packages read `require`, `__filename` and `__dirname`, which an ES module does
 * not have (the Deno shim under @grammyjs/i18n needs `__dirname`): the banner defines them once.
 */
const commonJsGlobals = [
  "import { createRequire as __kiosbotCreateRequire } from 'node:module';",
  "import { fileURLToPath as __kiosbotFileUrlToPath } from 'node:url';",
  "import { dirname as __kiosbotDirname } from 'node:path';",
  'const require = __kiosbotCreateRequire(import.meta.url);',
  'const __filename = __kiosbotFileUrlToPath(import.meta.url);',
  'const __dirname = __kiosbotDirname(__filename);',
].join('\n');

/** esbuild's options for a build into `outdir`, entry points relative to `root` (the repository). */
export function bundleOptions(root: string, outdir: string): BuildOptions {
  return {
    entryPoints: builtEntries.map((entry) => path.join(root, entry)),
    outdir,
    outbase: path.join(root, 'src'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@napi-rs/canvas'],
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    // Chunks in the entry points' own directory: code that reads `import.meta.url` (the locales,
    // the fonts) finds what it looks for from there, wherever esbuild puts it.
    splitting: true,
    chunkNames: '[name]-[hash]',
    sourcemap: 'linked',
    // Class names survive minification-free bundling only with this: grammY's fetch polyfill
    // (node-fetch 2) recognises an AbortSignal by `constructor.name`; renamed, getMe never aborts.
    keepNames: true,
    banner: { js: commonJsGlobals },
    logLevel: 'warning',
  };
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const outdir = process.argv.find((arg) => arg.startsWith('--outdir='))?.slice('--outdir='.length);
  if (!outdir) {
    console.error('usage: tsx tools/build.ts --outdir=<directory>');
    process.exit(2);
  }
  const root = path.resolve(import.meta.dirname, '..');
  const esbuild = await import('esbuild');
  await rm(path.resolve(outdir), { recursive: true, force: true });
  await esbuild.build(bundleOptions(root, path.resolve(outdir)));
}
