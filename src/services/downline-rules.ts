/**
 * The pure rules of downlines: invite payloads and states, levels typed in the /jual shape, and a
 * downline's price. No store, no clock of its own (times come in as arguments).
 */
import { randomInt } from 'node:crypto';
import type { DownlineInvite, DownlineLevel, DownlineMode, JoinRequest, Membership, SellRules } from '../store/records/users.ts';
import { emptySellRules, parseOverride, readMarkup, roundingSteps, sellPriceOf, type PricedProduct, type SellPrice } from './pricing.ts';
import { withBrandRule, withDefaultRule, withProductRule } from './pricing.ts';

/** Bounds that keep an upline's record small (it is read on every update of theirs). */
export const downlineLimits = {
  levels: 10,
  activeInvites: 10,
  /** Inactive invites kept to answer an old link with "revoked"/"expired" rather than "unknown". */
  inactiveInvitesKept: 20,
  pendingRequests: 50,
  /** Decided requests kept to answer a late tap on one with what was decided. */
  decidedRequestsKept: 50,
  inviteDays: 365,
  inviteUses: 10_000,
  /** Removed downlines remembered for the upline's reports of all downlines. */
  formerKept: 100,
} as const;

const idAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random id of `length` letters and digits (no look-alikes): invites and requests, unguessable enough for a link. */
export function randomId(length = 10): string {
  let id = '';
  for (let i = 0; i < length; i++) id += idAlphabet[randomInt(idAlphabet.length)];
  return id;
}

const payloadPattern = /^dl_(\d{1,15})_([A-Za-z0-9]{6,16})$/;

/** The `/start` payload of an invite (Telegram allows A-Z, a-z, 0-9, _ and - up to 64 characters). */
export function invitePayload(uplineId: number, inviteId: string): string {
  return `dl_${uplineId}_${inviteId}`;
}

/** True when a `/start` payload has the shape of an invite (it may still name no invite). */
export function isInvitePayload(payload: string): boolean {
  return payload.startsWith('dl_');
}

/** The upline and invite a payload names, or undefined for one that does not read. */
export function readInvitePayload(payload: string): { uplineId: number; inviteId: string } | undefined {
  const match = payloadPattern.exec(payload.trim());
  if (!match) return undefined;
  return { uplineId: Number(match[1]), inviteId: match[2] ?? '' };
}

export type InviteState = 'active' | 'revoked' | 'expired' | 'used-up';

/** Whether an invite still lets someone ask to join at `now`. */
export function inviteState(invite: DownlineInvite, now: Date): InviteState {
  if (invite.revokedAt !== undefined) return 'revoked';
  if (invite.expiresAt !== undefined && Date.parse(invite.expiresAt) <= now.getTime()) return 'expired';
  if (invite.maxUses !== undefined && invite.uses >= invite.maxUses) return 'used-up';
  return 'active';
}

/** The level names first offered: one default level that sells at the upline's cost until they set its rules. */
export function newDownlineMode(now: Date): DownlineMode {
  return {
    openedAt: now.toISOString(),
    autoApprove: false,
    defaultLevelId: 'bronze',
    levels: [{ id: 'bronze', name: 'Bronze', rules: emptySellRules() }],
    invites: [],
    requests: [],
  };
}

/** A level name as typed: one word of letters, digits, `_` or `-`, up to 24 characters. */
export function isLevelName(name: string): boolean {
  return /^[\p{L}\p{N}_-]{1,24}$/u.test(name);
}

/** The level called `name` (any letter case), if any. */
export function levelByName(mode: DownlineMode, name: string): DownlineLevel | undefined {
  const wanted = name.toLocaleLowerCase('id-ID');
  return mode.levels.find((level) => level.name.toLocaleLowerCase('id-ID') === wanted);
}

/** The level a downline buys at: theirs, or the default should theirs be gone. */
export function levelOf(mode: DownlineMode, levelId: string): DownlineLevel {
  const level = mode.levels.find((l) => l.id === levelId) ?? mode.levels.find((l) => l.id === mode.defaultLevelId) ?? mode.levels[0];
  if (!level) throw new Error('a downline mode has at least one level');
  return level;
}

/** A new level's id: from its name (`gold`), else `l2`, `l3` … — never one in use. */
export function newLevelId(mode: DownlineMode, name: string): string {
  const taken = new Set(mode.levels.map((level) => level.id));
  const fromName = name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 12);
  if (fromName !== '' && !taken.has(fromName)) return fromName;
  for (let n = 2; ; n++) if (!taken.has(`l${n}`)) return `l${n}`;
}

/**
 * A downline's price of a product: their level's rules (the /jual shape) over the upline's cost
 * (`product.price`). The same pure rule /jual uses, so a level reads like a reseller's own prices.
 */
export function downlinePrice(mode: DownlineMode, membership: Pick<Membership, 'levelId'>, product: PricedProduct): SellPrice {
  return sellPriceOf(levelOf(mode, membership.levelId).rules, product);
}

/** A line of a level's rules that was not applied, and why. */
export interface LevelLineProblem {
  line: string;
  reason: 'unreadable' | 'too-large' | 'ambiguous';
}

const brandWords = /^(brand|merek)\s+/i;
const productWords = /^(produk|product)\s+/i;
const roundWords = /^(bulat|round)\s+/i;

/**
 * Applies typed rule lines to `rules`: a markup alone is the default (`2%`, `Rp 500`), `brand NAME
 * MARKUP`, `produk CODE MARKUP` (or `=PRICE`, or `hapus`), `bulat STEP` (a /jual rounding step).
 * Read with /jual's own parser (pricing.ts). Every line that does not read is named; then nothing applies.
 */
export function applyLevelLines(rules: SellRules, lines: readonly string[]): { rules: SellRules } | { problems: LevelLineProblem[] } {
  let next = rules;
  const problems: LevelLineProblem[] = [];
  const refuse = (line: string, read: { tooLarge: true } | { ambiguous: number } | undefined) =>
    problems.push({ line, reason: read === undefined ? 'unreadable' : 'tooLarge' in read ? 'too-large' : 'ambiguous' });
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (roundWords.test(line)) {
      const step = Number(
        line
          .replace(roundWords, '')
          .replace(/^rp\.?\s*/i, '')
          .replace(/[.,]/g, ''),
      );
      if ((roundingSteps as readonly number[]).includes(step)) next = { ...next, step };
      else refuse(line, undefined);
      continue;
    }
    const scoped = brandWords.test(line) ? 'brand' : productWords.test(line) ? 'product' : undefined;
    if (scoped) {
      const read = parseOverride(line.replace(scoped === 'brand' ? brandWords : productWords, ''), { price: scoped === 'product' });
      if (!read || !('markup' in read)) {
        refuse(line, read && !('markup' in read) ? ('tooLarge' in read ? { tooLarge: true } : { ambiguous: read.ambiguous }) : undefined);
        continue;
      }
      const markup = read.markup === 'remove' ? undefined : read.markup;
      next = scoped === 'brand' ? withBrandRule(next, read.name, markup) : withProductRule(next, read.name, markup);
      continue;
    }
    const read = readMarkup(line);
    if (read && 'markup' in read) next = withDefaultRule(next, read.markup, next.step);
    else refuse(line, read);
  }
  return problems.length > 0 ? { problems } : { rules: next };
}

/** The requests with the decided ones beyond `decidedRequestsKept` dropped (oldest first). */
export function keptRequests(requests: readonly JoinRequest[]): JoinRequest[] {
  const decided = requests.filter((r) => r.status !== 'pending');
  const drop = new Set(decided.slice(0, Math.max(0, decided.length - downlineLimits.decidedRequestsKept)));
  return requests.filter((r) => !drop.has(r));
}

/** The invites with the inactive ones beyond `inactiveInvitesKept` dropped (oldest first). */
export function keptInvites(invites: readonly DownlineInvite[], now: Date): DownlineInvite[] {
  const inactive = invites.filter((invite) => inviteState(invite, now) !== 'active');
  const drop = new Set(inactive.slice(0, Math.max(0, inactive.length - downlineLimits.inactiveInvitesKept)));
  return invites.filter((invite) => !drop.has(invite));
}
