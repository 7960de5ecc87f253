/**
 * Migration 004: send slots shared by the fleet (see ../send-slots.ts): the slots taken, per
 * overall rate, and each chat's next free instant (ms).
 */
export const sql = /* sql */ `
CREATE TABLE send_slots (
  per_second integer NOT NULL,
  slot bigint NOT NULL,
  PRIMARY KEY (per_second, slot)
);
CREATE TABLE chat_sends (
  chat_id bigint PRIMARY KEY,
  next_at bigint NOT NULL
);
-- Chats whose next free instant passed long ago are deleted as reservations go on.
CREATE INDEX chat_sends_by_next_at ON chat_sends (next_at);
`;
