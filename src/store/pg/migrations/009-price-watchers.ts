/**
 * Migration 009: the price watch pass lists the users with a price watch (`users.list({
 * priceWatchers: true })`), a few among many: a partial index on exactly that condition answers it
 * without reading every user's record. Its predicate is the engine's `priceWatcherRows`, word for
 * word, so the planner can prove the query stays inside it.
 */
export const sql = /* sql */ `
CREATE INDEX users_price_watchers ON users (id) WHERE record -> 'priceWatch' IS NOT NULL;
`;
