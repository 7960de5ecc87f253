/**
 * The operator's game shop catalogue (GAMESHOP_CATALOGUE, JSON): which products each game sells and
 * which payment methods the shop takes. The shop's API lists games only, so without this file the
 * order flow asks for numeric ids. Validated when first needed, then kept for the process's life;
 * `catalogue.sample.json` is a complete example.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { slugPattern } from '../providers/gameshop/schemas.ts';

const id = z.number().int().positive();
const name = z.string().trim().min(1);

const catalogueProductSchema = z.object({
  id,
  name,
  /** Unit price in whole rupiah, before promo and fees (display only: the shop prices the order). */
  price: z.number().int().nonnegative().optional(),
});

const catalogueGameSchema = z.object({
  /** The game's slug at the shop (`game` in orders), e.g. `mobile-legends`. */
  slug: z.string().regex(slugPattern, { error: 'must be the game slug used by the shop (lowercase words joined by dashes)' }),
  title: name.optional(),
  /** What the game calls the player id (`User ID`, `UID`, `Riot ID` ...). */
  idLabel: name.optional(),
  /** Present when an order must carry `server`. */
  server: z
    .object({
      label: name,
      /** The only accepted values, when the game has a fixed list (offered as buttons). */
      servers: z.array(name).min(1).optional(),
    })
    .optional(),
  products: z.array(catalogueProductSchema).min(1, { error: 'a game needs at least one product' }),
  // Descriptive fields (as the shop lists them); kept, not used by the flow.
  id: z.number().int().optional(),
  developers: z.string().optional(),
  brand: z.string().optional(),
  category_id: z.number().int().optional(),
  description: z.string().optional(),
  status: z.boolean().optional(),
  populer: z.boolean().optional(),
  sort: z.number().int().optional(),
});

const cataloguePaymentMethodSchema = z.object({
  id,
  name,
  /** `qris`, `virtual_account`, `ewallet`, ... (informational). */
  kind: z.string().optional(),
  /** The method's fee as the shop charges it (informational; the shop computes the real fee). */
  fee: z.object({ flat: z.number().nonnegative(), percent: z.number().nonnegative() }).optional(),
});

const gameCatalogueSchema = z
  .object({
    categories: z.array(z.object({ id: z.number().int(), title: z.string() })).optional(),
    games: z.array(catalogueGameSchema).min(1, { error: 'list at least one game' }),
    paymentMethods: z.array(cataloguePaymentMethodSchema).min(1, { error: 'list at least one payment method' }),
  })
  .superRefine((catalogue, ctx) => {
    const seenSlugs = new Set<string>();
    catalogue.games.forEach((game, index) => {
      if (seenSlugs.has(game.slug))
        ctx.addIssue({ code: 'custom', path: ['games', index, 'slug'], message: `slug ${game.slug} is listed twice` });
      seenSlugs.add(game.slug);
      const seenProducts = new Set<number>();
      game.products.forEach((product, p) => {
        if (seenProducts.has(product.id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['games', index, 'products', p, 'id'],
            message: `product id ${product.id} is listed twice for ${game.slug}`,
          });
        }
        seenProducts.add(product.id);
      });
      const servers = game.server?.servers ?? [];
      if (new Set(servers).size !== servers.length) {
        ctx.addIssue({ code: 'custom', path: ['games', index, 'server', 'servers'], message: 'a server is listed twice' });
      }
    });
    const seenMethods = new Set<number>();
    catalogue.paymentMethods.forEach((method, index) => {
      if (seenMethods.has(method.id))
        ctx.addIssue({ code: 'custom', path: ['paymentMethods', index, 'id'], message: `payment method id ${method.id} is listed twice` });
      seenMethods.add(method.id);
    });
  });

export type GameCatalogue = z.infer<typeof gameCatalogueSchema>;
export type CatalogueGame = z.infer<typeof catalogueGameSchema>;

/**
 * What became of the configured catalogue: `none` (GAMESHOP_CATALOGUE not set), `ok`, or
 * `invalid` (missing, unreadable, not JSON or not matching the schema; `problem` says which, in
 * words an operator can act on).
 */
export type GameCatalogueState =
  { kind: 'none' } | { kind: 'ok'; file: string; catalogue: GameCatalogue } | { kind: 'invalid'; file: string; problem: string };

/** Validates parsed JSON as a catalogue; `problem` lists where it breaks the schema (at most 8 issues). */
export function parseGameCatalogue(json: unknown): { ok: true; catalogue: GameCatalogue } | { ok: false; problem: string } {
  const parsed = gameCatalogueSchema.safeParse(json);
  if (parsed.success) return { ok: true, catalogue: parsed.data };
  const issues = parsed.error.issues;
  const lines = issues.slice(0, 8).map((issue) => `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`);
  const more = issues.length > 8 ? ` (and ${issues.length - 8} more)` : '';
  return { ok: false, problem: `it does not match the catalogue format: ${lines.join('; ')}${more}` };
}

/** Reads and validates the catalogue at `file`; never throws (a file it cannot use is `invalid`, with the reason). */
export async function loadGameCatalogue(file: string): Promise<GameCatalogueState> {
  const resolved = path.resolve(file);
  let text: string;
  try {
    text = await readFile(resolved, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? 'the file does not exist'
        : code === 'EACCES'
          ? 'the bot may not read it (permissions)'
          : code === 'EISDIR'
            ? 'it is a directory, not a file'
            : `it cannot be read (${code ?? String(error)})`;
    return { kind: 'invalid', file: resolved, problem };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', file: resolved, problem: `it is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = parseGameCatalogue(json);
  return parsed.ok
    ? { kind: 'ok', file: resolved, catalogue: parsed.catalogue }
    : { kind: 'invalid', file: resolved, problem: parsed.problem };
}

interface CatalogueLoaderOptions {
  /** The operator's catalogue file (GAMESHOP_CATALOGUE), if any. */
  path: string | undefined;
  logger: { info(message: string, fields?: Record<string, unknown>): void; error(message: string, fields?: Record<string, unknown>): void };
}

/** A loader of the configured catalogue: the first call reads, validates and logs it; later calls reuse that outcome. */
export function createGameCatalogueLoader(options: CatalogueLoaderOptions): () => Promise<GameCatalogueState> {
  const { logger } = options;
  let state: Promise<GameCatalogueState> | undefined;
  const load = async (): Promise<GameCatalogueState> => {
    const file = options.path;
    const result: GameCatalogueState = file === undefined ? { kind: 'none' } : await loadGameCatalogue(file);
    if (result.kind === 'ok') {
      logger.info('game shop catalogue loaded', {
        file: result.file,
        games: result.catalogue.games.length,
        paymentMethods: result.catalogue.paymentMethods.length,
      });
    } else if (result.kind === 'invalid') {
      logger.error(
        `game shop catalogue ${result.file} cannot be used: ${result.problem}. Orders still work: the bot asks users for numeric product and payment method ids until the file is fixed and the bot restarted (see catalogue.sample.json)`,
        { file: result.file, problem: result.problem },
      );
    } else {
      logger.info('no game shop catalogue configured (GAMESHOP_CATALOGUE); orders ask for numeric product and payment method ids');
    }
    return result;
  };
  return () => (state ??= load());
}

/** The catalogue's entry for a game slug, if it has one. */
export function findCatalogueGame(catalogue: GameCatalogue, slug: string): CatalogueGame | undefined {
  return catalogue.games.find((game) => game.slug === slug);
}
