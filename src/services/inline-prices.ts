/**
 * Inline price sharing (`@bot tsel 10` in any chat): a connected reseller's matching products with
 * their SELL prices, a page at a time, for the bot to turn into price cards. The cost never leaves
 * this module: a card carries the sell price only. A downline's cost is their level price (the
 * catalogue hands them their upline's list at it): their cards show it, or their own /jual price
 * over it, never the upline's cost. Products come from the cached price list
 * (`CatalogueService`), never fetched per keystroke; the search is the price list's own.
 */
import { isProductAvailable, type Product } from '../providers/reseller/schemas.ts';
import type { Db } from '../store/db.ts';
import type { CatalogueService } from './catalogue.ts';
import type { TradingAccounts } from './trading.ts';
import { brandOf } from './brands.ts';
import { searchProducts } from './product-search.ts';
import type { SellPricesOf } from './pricing.ts';

/** Results per answer (Telegram allows 50). */
export const inlinePageSize = 20;

/** How many of the reseller's latest transactions rank the most-bought products of an empty query. */
const recentForRanking = 100;

/** What a price card shows: never the cost, a ref or a margin. */
export interface PriceCard {
  code: string;
  name: string;
  sellPrice: number;
  available: boolean;
  /** The provider's status word, verbatim (`active`, `gangguan`, `kosong`…). */
  status: string;
}

export type InlinePrices =
  /** Neither a connected reseller nor a downline: no prices, only the way to the bot. */
  | { kind: 'not-connected' }
  /** The price list could not be read (provider down, account refused). */
  | { kind: 'unavailable' }
  | {
      kind: 'page';
      cards: PriceCard[];
      /** The offset of the next page; undefined on the last one. */
      nextOffset: string | undefined;
      /** The shop name of the reseller's profile (/toko), if any. */
      shopName: string | undefined;
    };

export interface InlinePriceDeps {
  db: Db;
  catalogue: CatalogueService;
  /** Who may share prices: a connected reseller, or a downline (at their level's prices). */
  trading: Pick<TradingAccounts, 'of'>;
  /** Default: no sell prices (cards show the cost). */
  sellPrices?: SellPricesOf | undefined;
  pageSize?: number;
}

/** Inline mode's price cards: sell prices of the matching products (see the module comment). */
export class InlinePriceService {
  constructor(private readonly deps: InlinePriceDeps) {}

  /** One page (from `offset`, Telegram's opaque offset, '' for the first) of the products matching `query`. */
  async search(userId: number, query: string, offset: string): Promise<InlinePrices> {
    const { db, catalogue, trading } = this.deps;
    const account = await trading.of(userId);
    if (!account) return { kind: 'not-connected' };
    // A downline whose upline's account cannot sell now: their prices cannot be read either.
    if (account.kind === 'downline' && !account.connected) return { kind: 'unavailable' };
    let products: Product[];
    try {
      products = await catalogue.priceList(userId);
    } catch {
      return { kind: 'unavailable' };
    }
    const found = query.trim() === '' ? await this.mostBoughtFirst(userId, products) : searchProducts(products, query);
    const pageSize = this.deps.pageSize ?? inlinePageSize;
    const start = /^\d+$/.test(offset) ? Number(offset) : 0;
    const page = found.slice(start, start + pageSize);
    const sellPriceOf = await (this.deps.sellPrices ?? noSellPrices)(userId);
    return {
      kind: 'page',
      cards: page.map((product) => ({
        code: product.code,
        name: product.product_name,
        sellPrice:
          sellPriceOf({ code: product.code, name: product.product_name, brand: brandOf(product), price: product.price }) ?? product.price,
        available: isProductAvailable(product),
        status: product.status,
      })),
      nextOffset: start + pageSize < found.length ? String(start + pageSize) : undefined,
      shopName: (await db.users.get(userId))?.shop?.name,
    };
  }

  /** The price list with the reseller's most-bought products first (most bought, then most recent), the rest in provider order. */
  private async mostBoughtFirst(userId: number, products: Product[]): Promise<Product[]> {
    const recent = await this.deps.db.transactions.listByUser(userId, { limit: recentForRanking });
    const counts = new Map<string, number>();
    for (const tx of recent) counts.set(tx.code.toUpperCase(), (counts.get(tx.code.toUpperCase()) ?? 0) + 1);
    const order = [...counts.keys()];
    const rank = (p: Product) => counts.get(p.code.toUpperCase()) ?? 0;
    const bought = products
      .filter((p) => rank(p) > 0)
      .sort((a, b) => rank(b) - rank(a) || order.indexOf(a.code.toUpperCase()) - order.indexOf(b.code.toUpperCase()));
    return [...bought, ...products.filter((p) => rank(p) === 0)];
  }
}

const noSellPrices: SellPricesOf = () => Promise.resolve(() => undefined);
