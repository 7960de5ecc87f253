/**
 * Migration 008: the downlines' wallets. `ledger_entries` holds every entry (immutable, its key
 * unique in its wallet, its position `seq` too); `ledger_wallets` one row per wallet with the sum
 * of its entries and their count, which every append locks (`FOR UPDATE`) first: appends to one
 * wallet from any instance run one after the other, each checking the balance the one before left.
 * Both are written in that one transaction (the entries with their wallet row), so no foreign key.
 */
export const sql = /* sql */ `
CREATE TABLE ledger_wallets (
  wallet bigint PRIMARY KEY,
  upline bigint NOT NULL,
  balance bigint NOT NULL CHECK (balance >= 0),
  entries integer NOT NULL CHECK (entries >= 0)
);
CREATE TABLE ledger_entries (
  wallet bigint NOT NULL,
  seq integer NOT NULL CHECK (seq > 0),
  key text NOT NULL,
  ref_id text,
  kind text NOT NULL CHECK (kind IN ('deposit', 'hold', 'final', 'refund', 'adjust')),
  amount bigint NOT NULL,
  balance bigint NOT NULL CHECK (balance >= 0),
  created_at timestamptz NOT NULL,
  entry jsonb NOT NULL,
  PRIMARY KEY (wallet, seq),
  UNIQUE (wallet, key)
);
CREATE INDEX ledger_entries_by_ref ON ledger_entries (wallet, ref_id) WHERE ref_id IS NOT NULL;
`;
