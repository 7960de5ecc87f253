/**
 * Migration 002: the record of a copy from a lowdb data directory (`npm run migrate-store`). Its
 * one row says `copying` from before the first row is copied until the copy was verified, then
 * `done`; an engine refuses to open a database whose copy never reached `done`.
 */
export const sql = /* sql */ `
CREATE TABLE store_import (
  id integer PRIMARY KEY CHECK (id = 1),
  source text NOT NULL,
  state text NOT NULL CHECK (state IN ('copying', 'done')),
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  report jsonb
);
`;
