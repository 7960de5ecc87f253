/**
 * Migration 007: a stored update keeps the chat it belongs to, so that a later update of a chat
 * can wait while an earlier one of the same chat is open on another instance (per-chat order).
 * Rows of before have none and are not waited for.
 */
export const sql = /* sql */ `
ALTER TABLE inbox ADD COLUMN chat_id bigint;
CREATE INDEX inbox_open_by_chat ON inbox (chat_id, update_id) WHERE NOT done;
`;
