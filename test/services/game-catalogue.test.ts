import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGameCatalogueLoader, findCatalogueGame, loadGameCatalogue, parseGameCatalogue } from '../../src/services/game-catalogue.ts';
import { gameshopDemoCatalogue } from '../../tools/sandbox/gameshop.ts';
import { sampleCataloguePath } from '../helpers/gameshop.ts';

/** A minimal valid catalogue. */
const minimal = {
  games: [{ slug: 'free-fire', products: [{ id: 201, name: '70 Diamonds' }] }],
  paymentMethods: [{ id: 1, name: 'QRIS' }],
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-catalogue-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, content: string): Promise<string> {
  const target = path.join(dir, name);
  await writeFile(target, content);
  return target;
}

function silentLogger() {
  const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  return {
    lines,
    info: (message: string, fields?: Record<string, unknown>) => void lines.push({ level: 'info', message, fields }),
    error: (message: string, fields?: Record<string, unknown>) => void lines.push({ level: 'error', message, fields }),
  };
}

describe('catalogue.sample.json', () => {
  it('is exactly the sandbox shop’s demo catalogue', async () => {
    const raw: unknown = JSON.parse(await readFile(sampleCataloguePath, 'utf8'));
    expect(raw).toEqual(JSON.parse(JSON.stringify(gameshopDemoCatalogue)));
  });

  it('parses, and keeps every game, product, price, server rule and payment method of the sandbox', async () => {
    const state = await loadGameCatalogue(sampleCataloguePath);
    if (state.kind !== 'ok') throw new Error(`sample catalogue unusable: ${state.kind === 'invalid' ? state.problem : state.kind}`);
    expect(state.catalogue).toEqual(JSON.parse(JSON.stringify(gameshopDemoCatalogue)));
    expect(findCatalogueGame(state.catalogue, 'mobile-legends')).toMatchObject({ idLabel: 'User ID', server: { label: 'Zone ID' } });
    expect(findCatalogueGame(state.catalogue, 'genshin-impact')?.server?.servers).toEqual(['os_asia', 'os_usa', 'os_euro', 'os_cht']);
    expect(findCatalogueGame(state.catalogue, 'free-fire')?.server).toBeUndefined();
    expect(findCatalogueGame(state.catalogue, 'nope')).toBeUndefined();
  });
});

describe('parseGameCatalogue', () => {
  it('accepts the minimal form: slugs, product ids and names, payment method ids and names', () => {
    expect(parseGameCatalogue(minimal)).toEqual({ ok: true, catalogue: minimal });
  });

  it.each([
    ['no games', { ...minimal, games: [] }, 'games: list at least one game'],
    ['no payment methods', { ...minimal, paymentMethods: [] }, 'paymentMethods: list at least one payment method'],
    ['a title instead of a slug', { ...minimal, games: [{ slug: 'Free Fire', products: [{ id: 1, name: 'x' }] }] }, 'games.0.slug'],
    [
      'a game without products',
      { ...minimal, games: [{ slug: 'free-fire', products: [] }] },
      'games.0.products: a game needs at least one product',
    ],
    ['a text product id', { ...minimal, games: [{ slug: 'free-fire', products: [{ id: '201', name: 'x' }] }] }, 'games.0.products.0.id'],
    [
      'a negative price',
      { ...minimal, games: [{ slug: 'free-fire', products: [{ id: 1, name: 'x', price: -5 }] }] },
      'games.0.products.0.price',
    ],
    ['a slug listed twice', { ...minimal, games: [minimal.games[0], minimal.games[0]] }, 'games.1.slug: slug free-fire is listed twice'],
    [
      'a product id listed twice in a game',
      {
        ...minimal,
        games: [
          {
            slug: 'free-fire',
            products: [
              { id: 1, name: 'a' },
              { id: 1, name: 'b' },
            ],
          },
        ],
      },
      'product id 1 is listed twice for free-fire',
    ],
    [
      'a payment method listed twice',
      {
        ...minimal,
        paymentMethods: [
          { id: 1, name: 'a' },
          { id: 1, name: 'b' },
        ],
      },
      'payment method id 1 is listed twice',
    ],
    [
      'an empty server list',
      { ...minimal, games: [{ ...minimal.games[0], server: { label: 'Server', servers: [] } }] },
      'games.0.server.servers',
    ],
    ['not an object', [1, 2, 3], '(top level)'],
  ])('refuses %s, saying where', (_name, input, where) => {
    const result = parseGameCatalogue(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain(where);
  });
});

describe('loadGameCatalogue', () => {
  it('names a missing file and says it does not exist', async () => {
    const missing = path.join(dir, 'missing.json');
    expect(await loadGameCatalogue(missing)).toEqual({ kind: 'invalid', file: missing, problem: 'the file does not exist' });
  });

  it('says when the file is not JSON', async () => {
    const broken = await file('broken.json', '{ "games": [ oops');
    const state = await loadGameCatalogue(broken);
    expect(state).toMatchObject({ kind: 'invalid', file: broken });
    if (state.kind === 'invalid') expect(state.problem).toContain('not valid JSON');
  });

  it('resolves a relative path from the working directory', async () => {
    const state = await loadGameCatalogue('catalogue.sample.json');
    expect(state).toMatchObject({ kind: 'ok', file: path.resolve('catalogue.sample.json') });
  });
});

describe('createGameCatalogueLoader', () => {
  it('loads once per loader and logs the outcome once', async () => {
    const good = await file('good.json', JSON.stringify(minimal));
    const logger = silentLogger();
    const catalogue = createGameCatalogueLoader({ path: good, logger });
    const first = await catalogue();
    await writeFile(good, 'no longer json');
    const second = await catalogue();
    expect(first).toBe(second);
    expect(first.kind).toBe('ok');
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'info', message: 'game shop catalogue loaded' })]);
  });

  it('logs an unusable file as an error naming it, once', async () => {
    const missing = path.join(dir, 'nowhere.json');
    const logger = silentLogger();
    const catalogue = createGameCatalogueLoader({ path: missing, logger });
    expect((await catalogue()).kind).toBe('invalid');
    expect((await catalogue()).kind).toBe('invalid');
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.level).toBe('error');
    expect(logger.lines[0]?.message).toContain(missing);
    expect(logger.lines[0]?.message).toContain('numeric product and payment method ids');
  });

  it('is `none` without a configured file', async () => {
    const logger = silentLogger();
    expect(await createGameCatalogueLoader({ path: undefined, logger })()).toEqual({ kind: 'none' });
  });
});
