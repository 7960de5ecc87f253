/**
 * Migration 003: a stored update is held by the instance handling it (a lease), so that a replay
 * on another instance claims only the updates whose handler died.
 */
export const sql = /* sql */ `
ALTER TABLE inbox ADD COLUMN lease_owner text, ADD COLUMN lease_until timestamptz;
`;
