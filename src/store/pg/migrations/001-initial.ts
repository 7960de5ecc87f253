/**
 * Migration 001: the first schema. Records are kept whole as jsonb (validated by the same zod
 * schemas as the lowdb files); the columns beside them are what queries, constraints and claims
 * need. Times a query compares are timestamptz columns written from the engine's clock.
 */
export const sql = /* sql */ `
CREATE TABLE users (
  id bigint PRIMARY KEY,
  active boolean NOT NULL,
  record jsonb NOT NULL
);

-- Secrets arrive sealed by the vault: this table never sees a plain key.
CREATE TABLE credentials (
  user_id bigint NOT NULL,
  service text NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (user_id, service)
);

-- Open and settled transactions in one table; final = settled (Sukses, Gagal, Unresolved, Rejected).
CREATE TABLE transactions (
  ref_id text PRIMARY KEY,
  user_id bigint NOT NULL,
  final boolean NOT NULL,
  created_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  target text NOT NULL,
  trx_id text,
  lease_owner text,
  lease_until timestamptz,
  record jsonb NOT NULL
);
CREATE INDEX transactions_by_user ON transactions (user_id, created_at DESC, ref_id DESC);
CREATE INDEX transactions_by_created ON transactions (created_at DESC);
CREATE INDEX transactions_due ON transactions (due_at, ref_id) WHERE NOT final;
CREATE INDEX transactions_by_trx_id ON transactions (user_id, upper(trx_id)) WHERE trx_id IS NOT NULL;

-- One confirmation id, one set of transactions: the primary key decides a race, not a read.
CREATE TABLE confirmations (
  id text PRIMARY KEY,
  ref_ids text[] NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX confirmations_by_at ON confirmations (at);

CREATE TABLE outbox (
  id text PRIMARY KEY,
  chat_id bigint NOT NULL,
  due_at timestamptz NOT NULL,
  dedupe_key text,
  lease_owner text,
  lease_until timestamptz,
  item jsonb NOT NULL
);
CREATE UNIQUE INDEX outbox_dedupe ON outbox (dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX outbox_due ON outbox (due_at, id);
CREATE INDEX outbox_by_chat ON outbox (chat_id);

CREATE TABLE conversations (
  key text PRIMARY KEY,
  sealed text NOT NULL
);

-- A group has one owner (the key) and an owner one group.
CREATE TABLE groups (
  chat_id bigint PRIMARY KEY,
  owner_id bigint NOT NULL UNIQUE,
  record jsonb NOT NULL
);

CREATE TABLE game_orders (
  order_id text PRIMARY KEY,
  user_id bigint NOT NULL,
  created_at timestamptz NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX game_orders_by_user ON game_orders (user_id, created_at DESC, order_id DESC);

CREATE TABLE inbox (
  update_id bigint PRIMARY KEY,
  sealed text NOT NULL,
  received_at timestamptz NOT NULL,
  done boolean NOT NULL DEFAULT false,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX inbox_pending ON inbox (update_id) WHERE NOT done;

CREATE TABLE balances (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL,
  account text NOT NULL,
  at timestamptz NOT NULL,
  balance bigint NOT NULL
);
CREATE INDEX balances_by_user ON balances (user_id, id);

-- Recipients and counters live in the job; each finished position is a row (a repeat is ignored).
CREATE TABLE broadcasts (
  id text PRIMARY KEY,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  job jsonb NOT NULL
);
CREATE UNIQUE INDEX broadcasts_one_running ON broadcasts ((status)) WHERE status = 'running';
CREATE TABLE broadcast_deliveries (
  job_id text NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
  position integer NOT NULL,
  outcome text NOT NULL,
  PRIMARY KEY (job_id, position)
);

CREATE TABLE price_watch (
  account_key text PRIMARY KEY,
  snapshot jsonb NOT NULL
);
`;
