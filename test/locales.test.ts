import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../src/bot/commands.ts';
import { supportedLocales } from '../src/domain.ts';
import { localesDirectory } from '../src/bot/i18n.ts';

/** Message ids defined in a locale's Fluent files (terms and attributes aside). */
function keysOf(locale: string): Map<string, string> {
  const dir = path.join(localesDirectory, locale);
  const keys = new Map<string, string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ftl'))) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      const match = /^([a-z][a-z0-9-]*)\s*=/.exec(line);
      if (match?.[1]) {
        expect(keys.has(match[1]), `${locale}: ${match[1]} is defined twice`).toBe(false);
        keys.set(match[1], file);
      }
    }
  }
  return keys;
}

/** Keys used in the source through t('…') / ctx.t('…') with a literal key. */
function keysUsedInSource(): Set<string> {
  const used = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) {
        for (const match of readFileSync(full, 'utf8').matchAll(/\bt\(\s*'([a-z][a-z0-9-]*)'/g)) if (match[1]) used.add(match[1]);
      }
    }
  };
  walk(path.join(localesDirectory, '..', 'src'));
  return used;
}

describe('locales', () => {
  const id = keysOf('id');
  const en = keysOf('en');

  it('Indonesian and English define the same messages', () => {
    expect([...id.keys()].filter((key) => !en.has(key))).toEqual([]);
    expect([...en.keys()].filter((key) => !id.has(key))).toEqual([]);
  });

  it('every command has a description in every language', () => {
    for (const locale of supportedLocales) {
      const keys = locale === 'id' ? id : en;
      for (const command of commands) expect(keys.has(`command-${command.name}`), `${locale}: command-${command.name}`).toBe(true);
    }
  });

  it('every literal key the code translates exists', () => {
    const missing = [...keysUsedInSource()].filter((key) => !id.has(key));
    expect(missing).toEqual([]);
  });
});
