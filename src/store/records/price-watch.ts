/**
 * Price-watch snapshots: the last price list seen for a watched reseller account, stored compact
 * (one `[code, name, price, status]` row per product), shared by both engines.
 */
import { z } from 'zod';

/** One product as the snapshot keeps it. */
export interface SnapshotProduct {
  code: string;
  name: string;
  /** Integer rupiah. */
  price: number;
  /** Verbatim: `active` or why it cannot be bought. */
  status: string;
}

export interface PriceSnapshot {
  /** When this list was fetched (ISO). */
  at: string;
  products: SnapshotProduct[];
}

const rowSchema = z.tuple([z.string(), z.string(), z.number().int().nonnegative(), z.string()]);
export const storedSnapshotSchema = z.object({ at: z.string(), products: z.array(rowSchema) });
export type StoredSnapshot = z.infer<typeof storedSnapshotSchema>;

/** A snapshot as stored, validated. */
export function toStoredSnapshot(snapshot: PriceSnapshot): StoredSnapshot {
  return storedSnapshotSchema.parse({ at: snapshot.at, products: snapshot.products.map((p) => [p.code, p.name, p.price, p.status]) });
}

/** A stored snapshot (validated again: the PostgreSQL engine reads it from jsonb) as products. */
export function fromStoredSnapshot(stored: unknown): PriceSnapshot {
  const { at, products } = storedSnapshotSchema.parse(stored);
  return { at, products: products.map(([code, name, price, status]) => ({ code, name, price, status })) };
}
