import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { comments, importCircles, importGraph, longFunctions, parseFiles, type ParsedFile } from './helpers/source-code.ts';

/**
 * The sandbox providers and the playground are development tools (tools/), not product: the bot in
 * src/ must run without them. ESLint's no-restricted-imports catches static imports; this test also
 * catches dynamic `import()`, `require()` and re-exports, by resolving every relative module
 * specifier found in src/ and checking where it lands.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = join(root, 'src');
const toolsDir = join(root, 'tools');

/** Every .ts file under a folder, recursively. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Module specifiers of `from '…'`, `import('…')`, `require('…')` and bare `import '…'`. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"`])([^'"`]+)\1/g;
  for (const match of source.matchAll(pattern)) {
    const specifier = match[2];
    if (specifier !== undefined) found.push(specifier);
  }
  return found;
}

/** The src/ files (relative to the repo) that reach into tools/, with the offending specifier. */
function importsOfTools(files: string[]): string[] {
  const offending: string[] = [];
  for (const file of files) {
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.') && !specifier.startsWith('/')) continue;
      const target = resolve(dirname(file), specifier);
      if (target === toolsDir || target.startsWith(toolsDir + sep)) {
        offending.push(`${relative(root, file)} → ${specifier}`);
      }
    }
  }
  return offending;
}

describe('product code and tools', () => {
  it('finds the product source files (the scan is not vacuous)', () => {
    const files = tsFiles(srcDir);
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((file) => file.endsWith(join('src', 'main.ts')))).toBe(true);
  });

  it('src/ never imports anything from tools/ (sandbox, playground)', () => {
    expect(importsOfTools(tsFiles(srcDir))).toEqual([]);
  });

  it('no file in src/ is over 500 lines (a module that grows past it is split along a seam)', () => {
    const long = tsFiles(srcDir)
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 500);
    expect(long).toEqual([]);
  });

  it('the drawing libraries (Skia, Chart.js, qrcode) are loaded on first use, never by a static import', () => {
    // Start-up does not draw: a static import would load (and, compiled, bundle-hoist) them into every start.
    const heavy = /^import\s+(?!type\b)[^;]*?from\s*'(@napi-rs\/canvas|chart\.js|qrcode)'/gm;
    const eager = tsFiles(srcDir).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(heavy)].map((match) => `${relative(root, file)} → ${match[1]}`),
    );
    expect(eager).toEqual([]);
  });
});

const storeDir = join(srcDir, 'store');
const recordsDir = join(storeDir, 'records');
const pgDir = join(storeDir, 'pg');
/**
 * Store modules that belong to neither engine: errors, the vault and its key audit, and the
 * in-process locks, send claims and send slots the PostgreSQL engine keeps as its local half.
 */
const sharedStoreFiles = [
  'errors.ts',
  'vault.ts',
  'key-audit.ts',
  'chat-locks.ts',
  'send-claims.ts',
  'send-slots.ts',
  'claim-holder.ts',
].map((name) => join(storeDir, name));

const inside = (dir: string, file: string) => file.startsWith(dir + sep);

/** The relative imports of `file`, resolved, that `allowed` refuses (as `file → specifier`). */
function importsRefused(file: string, allowed: (target: string) => boolean): string[] {
  return specifiers(readFileSync(file, 'utf8'))
    .filter((specifier) => specifier.startsWith('.'))
    .filter((specifier) => !allowed(resolve(dirname(file), specifier)))
    .map((specifier) => `${relative(root, file)} → ${specifier}`);
}

describe('the store: a contract over its records, two engines beside each other', () => {
  const contract = join(storeDir, 'contract.ts');
  const isLowdbFile = (target: string) =>
    inside(storeDir, target) &&
    !inside(recordsDir, target) &&
    !inside(pgDir, target) &&
    target !== contract &&
    !sharedStoreFiles.includes(target);

  it('finds the records and both engines (the scan is not vacuous)', () => {
    expect(tsFiles(recordsDir).length).toBeGreaterThan(5);
    expect(tsFiles(pgDir).length).toBeGreaterThan(5);
    expect(tsFiles(storeDir).filter(isLowdbFile).length).toBeGreaterThan(5);
  });

  it('the contract imports only the records (and the domain names)', () => {
    expect(importsRefused(contract, (target) => inside(recordsDir, target) || target === join(srcDir, 'domain.ts'))).toEqual([]);
  });

  it('the records import no engine and not the contract', () => {
    const refused = tsFiles(recordsDir).flatMap((file) =>
      importsRefused(file, (target) => !inside(storeDir, target) || inside(recordsDir, target) || sharedStoreFiles.includes(target)),
    );
    expect(refused).toEqual([]);
  });

  it('no file of the PostgreSQL engine imports a file of the lowdb engine', () => {
    expect(tsFiles(pgDir).flatMap((file) => importsRefused(file, (target) => !isLowdbFile(target)))).toEqual([]);
  });

  it('no file of the lowdb engine imports a file of the PostgreSQL engine', () => {
    const lowdbFiles = tsFiles(storeDir).filter(isLowdbFile);
    expect(lowdbFiles.flatMap((file) => importsRefused(file, (target) => !inside(pgDir, target)))).toEqual([]);
  });
});

describe('layers', () => {
  const textDir = join(srcDir, 'text');
  const servicesDir = join(srcDir, 'services');

  it('the renderers of src/text import nothing from services/ (both bot/ and notify/ use them, below the use cases)', () => {
    expect(tsFiles(textDir).length).toBeGreaterThan(5);
    expect(tsFiles(textDir).flatMap((file) => importsRefused(file, (target) => !inside(servicesDir, target)))).toEqual([]);
  });
});

describe('small, named units', () => {
  let parsed: ParsedFile[] | undefined;
  /** src/ parsed once for the tests below. */
  const sources = () => (parsed ??= parseFiles(tsFiles(srcDir)));
  const fromRoot = (file: string) => relative(root, file);

  it('no import circle among the files of src/ (each file can be read, and tested, before the files it imports)', () => {
    const graph = importGraph(sources());
    // Not vacuous: the scan finds the imports (about four per file).
    expect([...graph.values()].flat().length).toBeGreaterThan(2 * graph.size);
    expect(importCircles(graph).map((circle) => circle.map(fromRoot))).toEqual([]);
  });

  it('no comment in src/ cites an issue number: it says why, the commit message says which issue', () => {
    const citation = /\bissues?\s*#?\d+|(?<![\w&])#\d+\b/i;
    const cited = sources().flatMap((file) =>
      comments(file)
        .filter(({ text }) => citation.test(text))
        .map(
          ({ line, text }) =>
            `${fromRoot(file.path)}:${line} ${text
              .split('\n')
              .find((row) => citation.test(row))
              ?.trim()}`,
        ),
    );
    expect(cited).toEqual([]);
  });

  /**
   * Functions of src/ allowed over 150 lines: none (issue 30's "no function over 150 lines"). A
   * function that grows past it is split along a seam into named units.
   */
  const longFunctionDebts: string[] = [];

  it('no function in src/ is over 150 lines', () => {
    const long = longFunctions(sources(), 150, root);
    // Not vacuous: the measure sees a function of 51 lines when asked for those over 50.
    expect(longFunctions(sources(), 50, root).length).toBeGreaterThan(long.length);
    expect(long.map(({ name }) => name)).toEqual(longFunctionDebts);
  });
});
