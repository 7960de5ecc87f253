import { createCallbackData } from 'callback-data';

/**
 * Buttons of the /downline screens: `action` (`home`, `invites`, `newinv`, `revoke`, `auto`,
 * `levels`, `card`, `sus`, `res`, `rm`, `lvl`, `limit` (the daily limit screen), `lim` (set it)),
 * `id` what it acts on (a downline's user id, an invite id, a page of `home`, or `-`), `arg` a level
 * id, `on`/`off`, a daily limit in rupiah or `off` (or `-`).
 */
export const downlineData = createCallbackData('dl', { action: String, id: String, arg: String });

/** Buttons under a join request the upline got: `ok` with the level to approve into, or `no` (level `-`). */
export const joinRequestData = createCallbackData('dlreq', { action: String, request: String, level: String });
