import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { parseDemoData } from '../../tools/sandbox/data.ts';
import { resellerDemoAccounts, resellerDemoDataSchema, resellerDemoProducts } from '../../tools/sandbox/reseller.ts';
import { marketplaceDemoAccounts, marketplaceDemoDataSchema, marketplaceDemoPurchaseCodes } from '../../tools/sandbox/marketplace.ts';
import { gameshopDemoDataSchema, gameshopDemoKeys, gameshopDemoPromos } from '../../tools/sandbox/gameshop.ts';

/**
 * The sandbox's demo records live in tools/sandbox/records/*.json. A typo there must stop the sandbox
 * with a message naming the file and the field, and the README's demo credentials must match them.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dataFile = (name: string) => readFileSync(path.join(repoRoot, 'tools/sandbox/records', name), 'utf8');

/**
 * The shipped data file read through its own schema (so an edit sees typed records), changed by
 * `edit`, back to text. The schemas have no transforms, so the text round-trips.
 */
function edited<Schema extends z.ZodType>(name: string, schema: Schema, edit: (data: z.output<Schema>) => void): string {
  const data = parseDemoData(name, schema, dataFile(name));
  edit(data);
  return JSON.stringify(data);
}

/** Item `index` of a list the shipped file is known to have. */
function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`the shipped data has no item ${index}`);
  return item;
}

// The edits below break the files on purpose, writing what the record types forbid.
const put = (record: object, field: string, value: unknown): void => void Reflect.set(record, field, value);
const drop = (record: object, field: string): void => void Reflect.deleteProperty(record, field);

describe('sandbox demo data files', () => {
  it('a misspelt field of a reseller product is reported with the file and the product', () => {
    const text = edited('reseller.json', resellerDemoDataSchema, (data) => {
      const product = nth(data.products, 3);
      put(product, 'pirce', product.price);
      drop(product, 'price');
    });
    expect(() => parseDemoData('reseller.json', resellerDemoDataSchema, text)).toThrow(/reseller\.json[\s\S]*products\[3\]/);
    expect(() => parseDemoData('reseller.json', resellerDemoDataSchema, text)).toThrow(/pirce/);
  });

  it('a balance that is not a whole number of rupiah is refused', () => {
    const text = edited('reseller.json', resellerDemoDataSchema, (data) => {
      put(data.accounts.main, 'balance', '1.000.000');
    });
    expect(() => parseDemoData('reseller.json', resellerDemoDataSchema, text)).toThrow(/accounts\.main\.balance/);
  });

  it('a missing named account (one the tests and README rely on) is refused', () => {
    const text = edited('reseller.json', resellerDemoDataSchema, (data) => {
      put(data.accounts, 'poorr', data.accounts.poor);
      drop(data.accounts, 'poor');
    });
    expect(() => parseDemoData('reseller.json', resellerDemoDataSchema, text)).toThrow(/accounts\.poor/);
  });

  it('duplicate product codes are refused', () => {
    const text = edited('reseller.json', resellerDemoDataSchema, (data) => {
      nth(data.products, 1).code = nth(data.products, 0).code;
    });
    expect(() => parseDemoData('reseller.json', resellerDemoDataSchema, text)).toThrow(/duplicate product code "TSEL5"/);
  });

  it('a marketplace sale of an item its seller does not have is refused', () => {
    const text = edited('marketplace.json', marketplaceDemoDataSchema, (data) => {
      data.purchases.secondSeller.itemId = 48201;
    });
    const parse = () => parseDemoData('marketplace.json', marketplaceDemoDataSchema, text);
    expect(parse).toThrow(/seller second has no item 48201\s+→ at purchases\.secondSeller\.itemId/);
  });

  it('a game in an unknown category and a bad promo date are refused', () => {
    const text = edited('gameshop.json', gameshopDemoDataSchema, (data) => {
      nth(data.catalogue.games, 0).category_id = 42;
      nth(data.promos, 2).validUntil = '30 April 2024';
    });
    const parse = () => parseDemoData('gameshop.json', gameshopDemoDataSchema, text);
    expect(parse).toThrow(/no category has id 42\s+→ at catalogue\.games\[0\]\.category_id/);
    expect(parse).toThrow(/promos\[2\]\.validUntil/);
  });

  it('a file that is not JSON is reported as such, with its name', () => {
    expect(() => parseDemoData('gameshop.json', gameshopDemoDataSchema, '{ "keys": ')).toThrow(/gameshop\.json is not valid JSON/);
  });

  it('the shipped files load: the named accounts, products and codes are there', () => {
    expect(resellerDemoProducts.length).toBeGreaterThan(100);
    expect(Object.keys(resellerDemoAccounts)).toEqual(['main', 'second', 'poor', 'blocked']);
    expect(Object.keys(marketplaceDemoAccounts)).toEqual(['main', 'second', 'empty']);
    expect(Object.keys(marketplaceDemoPurchaseCodes)).toEqual(['supported', 'expired', 'unsupported', 'audio', 'secondSeller']);
    expect(Object.keys(gameshopDemoKeys)).toEqual(['main', 'second']);
  });
});

describe("README's demo credentials", () => {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const rupiah = (amount: number) => `Rp ${amount.toLocaleString('id-ID')}`;

  it('match the sandbox data files', () => {
    for (const account of Object.values(resellerDemoAccounts)) {
      expect(readme).toContain(account.apiId);
      expect(readme).toContain(account.apiKey);
    }
    for (const name of ['main', 'second', 'poor'] as const) expect(readme).toContain(rupiah(resellerDemoAccounts[name].balance));
    for (const account of Object.values(marketplaceDemoAccounts)) expect(readme).toContain(account.apiKey);
    expect(readme).toContain(`seller \`${marketplaceDemoAccounts.main.username}\``);
    expect(readme).toContain(`seller \`${marketplaceDemoAccounts.second.username}\``);
    for (const code of [
      marketplaceDemoPurchaseCodes.supported,
      marketplaceDemoPurchaseCodes.expired,
      marketplaceDemoPurchaseCodes.unsupported,
    ]) {
      expect(readme).toContain(code);
    }
    for (const key of Object.values(gameshopDemoKeys)) expect(readme).toContain(key);
    for (const promo of gameshopDemoPromos) expect(readme).toContain(`\`${promo.code}\``);
  });
});
