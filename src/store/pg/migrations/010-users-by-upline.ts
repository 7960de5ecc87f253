/**
 * Migration 010: an upline's downlines are read by their upline's id (/downline lists them), so
 * that id gets an index instead of a scan of every user. Only downlines have it.
 */
export const sql = /* sql */ `
CREATE INDEX users_by_upline ON users (((record->'membership'->>'uplineId')::bigint)) WHERE record ? 'membership';
`;
