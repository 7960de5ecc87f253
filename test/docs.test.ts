/**
 * README is the front door: every environment variable the bot reads is in its configuration
 * table and in .env.example, and every command the bot registers is in its command table.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../src/bot/commands.ts';

const root = path.resolve(import.meta.dirname, '..');
const read = (name: string) => readFileSync(path.join(root, name), 'utf8');
/** The variables of the zod schema in src/config.ts (its top-level keys). */
const variables = [...read('src/config.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!);

describe('README and .env.example', () => {
  it('name every environment variable the bot reads', () => {
    expect(variables.length).toBeGreaterThan(20);
    const readme = read('README.md');
    const example = read('.env.example');
    for (const name of variables) {
      expect(readme, `${name} in README's configuration table`).toContain(`| \`${name}\` |`);
      expect(example, `${name} in .env.example`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    }
  });

  it('name every command the bot registers, with its alias', () => {
    const readme = read('README.md');
    for (const { name, aliases } of commands) {
      expect(readme, `/${name} in README`).toContain(`\`/${name}`);
      for (const alias of aliases) expect(readme, `/${alias} in README`).toContain(`/${alias}`);
    }
  });
});
