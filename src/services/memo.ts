/**
 * A cache for values worked out from keys that rarely change (a product's code and name, a
 * rendered price view): `remember(key, make)` returns the value kept for `key`, or makes and keeps
 * it. It forgets everything once it holds `limit` entries, so it stays bounded without keeping
 * order: the keys in use come back at the next call.
 */
export function boundedCache<K, V>(limit: number): (key: K, make: () => V) => V {
  const kept = new Map<K, V>();
  return (key, make) => {
    if (kept.has(key)) return kept.get(key) as V;
    if (kept.size >= limit) kept.clear();
    const value = make();
    kept.set(key, value);
    return value;
  };
}

/** A key for what is worked out from a product's code and name alone (the same for every account's copy of it). */
export const productTextKey = (product: { code: string; product_name: string }): string => `${product.code}\u0000${product.product_name}`;
