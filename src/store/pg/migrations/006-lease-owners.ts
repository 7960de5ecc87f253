/**
 * Migration 006: each instance renews every claim it holds in one statement per table (its
 * heartbeat), found by owner: an index on the few rows under a claim, not a scan of the table.
 */
export const sql = /* sql */ `
CREATE INDEX transactions_by_lease_owner ON transactions (lease_owner) WHERE lease_owner IS NOT NULL;
CREATE INDEX outbox_by_lease_owner ON outbox (lease_owner) WHERE lease_owner IS NOT NULL;
CREATE INDEX inbox_by_lease_owner ON inbox (lease_owner) WHERE lease_owner IS NOT NULL;
`;
