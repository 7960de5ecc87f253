/**
<<<<<<<< HEAD:src/store/pg/migrations/010-users-by-upline.ts
 * Migration 010: an upline's downlines are read by their upline's id (/downline lists them), so
========
 * Migration 009: an upline's downlines are read by their upline's id (/downline lists them), so
>>>>>>>> i31-wallet:src/store/pg/migrations/009-users-by-upline.ts
 * that id gets an index instead of a scan of every user. Only downlines have it.
 */
export const sql = /* sql */ `
CREATE INDEX users_by_upline ON users (((record->'membership'->>'uplineId')::bigint)) WHERE record ? 'membership';
`;
