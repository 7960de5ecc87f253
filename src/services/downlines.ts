/**
 * Downlines: a connected reseller (the upline) opens downline mode, invites people by link, and
 * approves each into a level. The one writer of `downlineMode` and `membership` on user records:
 * every change goes through `users.transact`, so an upline's record and a joiner's change in one
 * commit, and a decision already taken is answered, never written again (by request id).
 */
import type { Db } from '../store/db.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { UsersChange } from '../store/contract.ts';
import type { DownlineInvite, DownlineLevel, DownlineMode, JoinRequest, Membership, UserRecord } from '../store/records/users.ts';
import type { CredentialService } from './credentials.ts';
import {
  applyLevelLines,
  downlineLimits,
  inviteState,
  isLevelName,
  keptInvites,
  keptRequests,
  levelByName,
  levelOf,
  newDownlineMode,
  newLevelId,
  randomId,
  readInvitePayload,
  type InviteState,
  type LevelLineProblem,
} from './downline-rules.ts';

/** A change an upline makes to one of their downlines (`limit`: the daily spend limit in rupiah, undefined for none). */
export type DownlineChange =
  | { kind: 'suspend' }
  | { kind: 'resume' }
  | { kind: 'remove' }
  | { kind: 'level'; levelId: string }
  | { kind: 'limit'; amount: number | undefined };

/** The largest daily spend limit an upline may set (integer rupiah). */
export const maxDailyLimit = 1_000_000_000;

/** The messages the service queues (built in the recipient's language by notify/downline-notices.ts). */
export interface DownlineMessages {
  /** To the upline: someone asks to join, with a button per level to approve into and one to decline. */
  request(upline: UserRecord, request: JoinRequest, mode: DownlineMode): NewOutboxItem;
  /** To the upline: someone joined by auto-approve. */
  joined(upline: UserRecord, request: JoinRequest, level: DownlineLevel): NewOutboxItem;
  /** To the joiner: what the upline decided (or why the request could not be approved). */
  outcome(joiner: UserRecord, upline: UserRecord, outcome: JoinOutcome): NewOutboxItem;
  /** To a downline: their upline changed their place. */
  changed(downline: UserRecord, upline: UserRecord, change: DownlineChange, level: DownlineLevel | undefined): NewOutboxItem;
}

export type JoinOutcome = { kind: 'approved'; level: DownlineLevel } | { kind: 'declined' } | { kind: 'void'; why: 'reseller' | 'upline' };

export interface DownlineServiceDeps {
  db: Db;
  credentials: Pick<CredentialService, 'has'>;
  now: () => Date;
  messages: DownlineMessages;
  /** Wakes the outbox after a change queued a message. */
  onQueued?: () => void;
}

/** Why a user cannot be an upline or a downline right now. */
export type RoleRefusal = { refused: 'not-connected' } | { refused: 'is-downline'; uplineId: number } | { refused: 'is-upline' };

/** What opening an invite link came to. */
export type JoinAnswer =
  | { kind: 'bad-invite' }
  | { kind: 'self' }
  | { kind: 'is-reseller' }
  | { kind: 'is-upline' }
  | { kind: 'member'; uplineId: number; same: boolean }
  | { kind: 'invite'; state: Exclude<InviteState, 'active'> }
  | { kind: 'upline-unavailable' }
  | { kind: 'full' }
  | { kind: 'pending'; upline: UserRecord }
  | { kind: 'requested'; upline: UserRecord }
  | { kind: 'joined'; upline: UserRecord; level: DownlineLevel };

/** What an upline's approve or decline tap came to. */
export type DecideAnswer =
  | { kind: 'not-open' }
  | { kind: 'unknown-request' }
  | { kind: 'unknown-level' }
  | { kind: 'not-connected' }
  | { kind: 'approved'; request: JoinRequest; level: DownlineLevel }
  | { kind: 'declined'; request: JoinRequest }
  | { kind: 'void'; request: JoinRequest; why: 'reseller' | 'upline' | 'member' }
  | { kind: 'decided'; request: JoinRequest; level: DownlineLevel | undefined };

/** One downline as the upline's list shows them. */
export interface DownlineEntry {
  user: UserRecord;
  membership: Membership;
  level: DownlineLevel;
}

type Change<R> = UsersChange<R>;
const answer = <R>(result: R): Change<R> => ({ patches: [], result });

/** Downline mode, invitations, join requests and levels (see the file comment). */
export class DownlineService {
  constructor(private readonly deps: DownlineServiceDeps) {}

  /** The user's downline mode, undefined when not open. */
  async mode(userId: number): Promise<DownlineMode | undefined> {
    return (await this.deps.db.users.get(userId))?.downlineMode;
  }

  /** Opens downline mode for a connected reseller who is nobody's downline; an open one is returned as it is. */
  async open(userId: number): Promise<{ mode: DownlineMode; opened: boolean } | RoleRefusal> {
    const connected = await this.deps.credentials.has(userId, 'reseller');
    const at = this.deps.now();
    return this.change([userId], (users): Change<{ mode: DownlineMode; opened: boolean } | RoleRefusal> => {
      const user = users.get(userId);
      if (user?.membership) return answer({ refused: 'is-downline', uplineId: user.membership.uplineId });
      if (user?.downlineMode) return answer({ mode: user.downlineMode, opened: false });
      if (!user || !connected) return answer({ refused: 'not-connected' });
      const mode = newDownlineMode(at);
      return { patches: [{ id: userId, patch: { downlineMode: mode } }], result: { mode, opened: true } };
    });
  }

  /** A new invite link (`days` until it expires, `uses` people who may ask through it); undefined when mode is closed. */
  async createInvite(
    userId: number,
    limits: { days?: number; uses?: number } = {},
  ): Promise<{ invite: DownlineInvite } | { refused: 'not-open' | 'too-many' }> {
    const at = this.deps.now();
    const id = randomId();
    return this.updateMode<{ invite: DownlineInvite } | { refused: 'too-many' }>(userId, (mode) => {
      const active = mode.invites.filter((invite) => inviteState(invite, at) === 'active');
      if (active.length >= downlineLimits.activeInvites) return { result: { refused: 'too-many' as const } };
      const invite: DownlineInvite = {
        id,
        createdAt: at.toISOString(),
        uses: 0,
        ...(limits.days === undefined ? {} : { expiresAt: new Date(at.getTime() + limits.days * 86_400_000).toISOString() }),
        ...(limits.uses === undefined ? {} : { maxUses: limits.uses }),
      };
      return { mode: { ...mode, invites: keptInvites([...mode.invites, invite], at) }, result: { invite } };
    });
  }

  /** Revokes an invite: its link answers "revoked" from now on. */
  async revokeInvite(userId: number, inviteId: string): Promise<'revoked' | 'already' | 'unknown'> {
    const at = this.deps.now();
    return this.updateMode(userId, (mode) => {
      const invite = mode.invites.find((i) => i.id === inviteId);
      if (!invite) return { result: 'unknown' as const };
      if (invite.revokedAt !== undefined) return { result: 'already' as const };
      const invites = mode.invites.map((i) => (i.id === inviteId ? { ...i, revokedAt: at.toISOString() } : i));
      return { mode: { ...mode, invites }, result: 'revoked' as const };
    }).then((result) => (typeof result === 'string' ? result : 'unknown'));
  }

  /** Turns the linked group's notices of downline purchases on or off; undefined when mode is closed. */
  async setGroupNotices(userId: number, on: boolean): Promise<DownlineMode | undefined> {
    const result = await this.updateMode(userId, (mode) => {
      const { groupNotices: _old, ...rest } = mode;
      const next = on ? { ...rest, groupNotices: true } : rest;
      return { mode: next, result: next };
    });
    return 'refused' in result ? undefined : result;
  }

  /** Turns auto-approve on or off (requests then join the default level at once). */
  async setAutoApprove(userId: number, on: boolean): Promise<DownlineMode | undefined> {
    const result = await this.updateMode(userId, (mode) => {
      const next = { ...mode, autoApprove: on };
      return { mode: next, result: next };
    });
    return 'refused' in result ? undefined : result;
  }

  /**
   * Creates level `name` or changes its rules with /jual-shaped lines (see `applyLevelLines`);
   * with a line that does not read, nothing changes and the problems are returned.
   */
  async saveLevel(
    userId: number,
    name: string,
    lines: readonly string[],
  ): Promise<
    { level: DownlineLevel; created: boolean } | { problems: LevelLineProblem[] } | { refused: 'not-open' | 'bad-name' | 'too-many' }
  > {
    if (!isLevelName(name)) return { refused: 'bad-name' };
    type Saved = { level: DownlineLevel; created: boolean } | { problems: LevelLineProblem[] } | { refused: 'too-many' };
    return this.updateMode<Saved>(userId, (mode) => {
      const existing = levelByName(mode, name);
      if (!existing && mode.levels.length >= downlineLimits.levels) return { result: { refused: 'too-many' as const } };
      const level = existing ?? { id: newLevelId(mode, name), name, rules: { step: 1, brands: {}, products: {} } };
      const applied = applyLevelLines(level.rules, lines);
      if ('problems' in applied) return { result: { problems: applied.problems } };
      const saved = { ...level, rules: applied.rules };
      const levels = existing ? mode.levels.map((l) => (l.id === saved.id ? saved : l)) : [...mode.levels, saved];
      return { mode: { ...mode, levels }, result: { level: saved, created: !existing } };
    });
  }

  /** Makes level `name` the default (auto-approve joins it). */
  async setDefaultLevel(userId: number, name: string): Promise<DownlineLevel | { refused: 'not-open' | 'unknown-level' }> {
    return this.updateMode<DownlineLevel | { refused: 'unknown-level' }>(userId, (mode) => {
      const level = levelByName(mode, name);
      if (!level) return { result: { refused: 'unknown-level' as const } };
      return { mode: { ...mode, defaultLevelId: level.id }, result: level };
    });
  }

  /** Removes level `name`: never the default, nor one a downline is at. */
  async removeLevel(
    userId: number,
    name: string,
  ): Promise<DownlineLevel | { refused: 'not-open' | 'unknown-level' | 'default' | 'in-use' }> {
    const members = await this.deps.db.users.list({ uplineId: userId });
    return this.updateMode<DownlineLevel | { refused: 'unknown-level' | 'default' | 'in-use' }>(userId, (mode) => {
      const level = levelByName(mode, name);
      if (!level) return { result: { refused: 'unknown-level' as const } };
      if (level.id === mode.defaultLevelId) return { result: { refused: 'default' as const } };
      if (members.some((user) => user.membership?.levelId === level.id)) return { result: { refused: 'in-use' as const } };
      return { mode: { ...mode, levels: mode.levels.filter((l) => l.id !== level.id) }, result: level };
    });
  }

  /**
   * A user opened an invite link (`/start dl_…`): refused with the reason, told their request
   * waits, or (auto-approve) joined. One request per user and upline: opening it again answers the
   * pending one; the upline is sent the request (or the news) in the same commit.
   */
  async requestJoin(joinerId: number, payload: string): Promise<JoinAnswer> {
    const named = readInvitePayload(payload);
    if (!named) return { kind: 'bad-invite' };
    if (named.uplineId === joinerId) return { kind: 'self' };
    const [joinerReseller, uplineReseller] = await Promise.all([
      this.deps.credentials.has(joinerId, 'reseller'),
      this.deps.credentials.has(named.uplineId, 'reseller'),
    ]);
    const at = this.deps.now();
    const requestId = randomId();
    return this.change([named.uplineId, joinerId], (users): Change<JoinAnswer> => {
      const upline = users.get(named.uplineId);
      const joiner = users.get(joinerId);
      const mode = upline?.ban ? undefined : upline?.downlineMode;
      const invite = mode?.invites.find((i) => i.id === named.inviteId);
      if (!upline || !mode || !invite || !joiner) return answer({ kind: 'bad-invite' });
      if (joiner.membership) {
        return answer({ kind: 'member', uplineId: joiner.membership.uplineId, same: joiner.membership.uplineId === upline.id });
      }
      if (joiner.downlineMode) return answer({ kind: 'is-upline' });
      if (joinerReseller) return answer({ kind: 'is-reseller' });
      if (mode.requests.some((r) => r.userId === joinerId && r.status === 'pending')) return answer({ kind: 'pending', upline });
      const state = inviteState(invite, at);
      if (state !== 'active') return answer({ kind: 'invite', state });
      if (!uplineReseller) return answer({ kind: 'upline-unavailable' });
      if (mode.requests.filter((r) => r.status === 'pending').length >= downlineLimits.pendingRequests) return answer({ kind: 'full' });
      const request: JoinRequest = {
        id: requestId,
        userId: joinerId,
        firstName: joiner.firstName,
        ...(joiner.username === undefined ? {} : { username: joiner.username }),
        inviteId: invite.id,
        at: at.toISOString(),
        status: 'pending',
      };
      const invites = mode.invites.map((i) => (i.id === invite.id ? { ...i, uses: i.uses + 1 } : i));
      if (!mode.autoApprove) {
        const next = { ...mode, invites, requests: keptRequests([...mode.requests, request]) };
        return {
          patches: [{ id: upline.id, patch: { downlineMode: next } }],
          notify: [this.deps.messages.request(upline, request, next)],
          result: { kind: 'requested', upline },
        };
      }
      const level = levelOf(mode, mode.defaultLevelId);
      const approved: JoinRequest = { ...request, status: 'approved', decidedAt: at.toISOString(), levelId: level.id };
      const next = { ...mode, invites, requests: keptRequests([...mode.requests, approved]) };
      return {
        patches: [
          { id: upline.id, patch: { downlineMode: next } },
          { id: joinerId, patch: { membership: membershipOf(upline.id, approved, level, at) } },
        ],
        notify: [this.deps.messages.joined(upline, approved, level)],
        result: { kind: 'joined', upline, level },
      };
    });
  }

  /**
   * The upline's answer to a join request: approve into `levelId`, or decline. Decided once: a
   * second tap (or a tap on an old request) is answered with what was decided and writes nothing.
   * The joiner is told in the same commit.
   */
  async decide(uplineId: number, requestId: string, decision: { approve: string } | 'decline'): Promise<DecideAnswer> {
    const found = (await this.mode(uplineId))?.requests.find((r) => r.id === requestId);
    if (!found) return (await this.mode(uplineId)) ? { kind: 'unknown-request' } : { kind: 'not-open' };
    const joinerId = found.userId;
    const [joinerReseller, uplineConnected] = await Promise.all([
      this.deps.credentials.has(joinerId, 'reseller'),
      this.deps.credentials.has(uplineId, 'reseller'),
    ]);
    const at = this.deps.now();
    return this.change([uplineId, joinerId], (users): Change<DecideAnswer> => {
      const upline = users.get(uplineId);
      const mode = upline?.downlineMode;
      const request = mode?.requests.find((r) => r.id === requestId);
      if (!upline || !mode) return answer({ kind: 'not-open' });
      if (!request) return answer({ kind: 'unknown-request' });
      if (request.status !== 'pending') {
        const level = request.levelId === undefined ? undefined : mode.levels.find((l) => l.id === request.levelId);
        return answer({ kind: 'decided', request, level });
      }
      const joiner = users.get(joinerId);
      const decided = (
        status: JoinRequest['status'],
        levelId?: string,
      ): { request: JoinRequest; patch: { downlineMode: DownlineMode } } => {
        const next: JoinRequest = { ...request, status, decidedAt: at.toISOString(), ...(levelId === undefined ? {} : { levelId }) };
        return { request: next, patch: { downlineMode: { ...mode, requests: mode.requests.map((r) => (r.id === requestId ? next : r)) } } };
      };
      if (decision === 'decline' || !joiner) {
        const { request: declined, patch } = decided('declined');
        const notify = joiner ? [this.deps.messages.outcome(joiner, upline, { kind: 'declined' })] : [];
        return { patches: [{ id: uplineId, patch }], notify, result: { kind: 'declined', request: declined } };
      }
      const level = mode.levels.find((l) => l.id === decision.approve);
      if (!level) return answer({ kind: 'unknown-level' });
      if (!uplineConnected) return answer({ kind: 'not-connected' });
      const why = joiner.membership ? 'member' : joiner.downlineMode ? 'upline' : joinerReseller ? 'reseller' : undefined;
      if (why !== undefined) {
        const { request: voided, patch } = decided('void');
        // A joiner who joined someone else meanwhile was told so then; the others learn why here.
        const notify = why === 'member' ? [] : [this.deps.messages.outcome(joiner, upline, { kind: 'void', why })];
        return { patches: [{ id: uplineId, patch }], notify, result: { kind: 'void', request: voided, why } };
      }
      const { request: approved, patch } = decided('approved', level.id);
      return {
        patches: [
          { id: uplineId, patch },
          { id: joinerId, patch: { membership: membershipOf(uplineId, approved, level, at) } },
        ],
        notify: [this.deps.messages.outcome(joiner, upline, { kind: 'approved', level })],
        result: { kind: 'approved', request: approved, level },
      };
    });
  }

  /** The upline's downlines, earliest joined first, each with their level. */
  async list(uplineId: number): Promise<DownlineEntry[]> {
    const mode = await this.mode(uplineId);
    if (!mode) return [];
    const users = await this.deps.db.users.list({ uplineId });
    return users
      .flatMap((user) => (user.membership ? [{ user, membership: user.membership, level: levelOf(mode, user.membership.levelId) }] : []))
      .sort((a, b) => a.membership.joinedAt.localeCompare(b.membership.joinedAt) || a.user.id - b.user.id);
  }

  /** One of the upline's downlines, undefined when that user is not theirs. */
  async entry(uplineId: number, downlineId: number): Promise<DownlineEntry | undefined> {
    const [mode, user] = await Promise.all([this.mode(uplineId), this.deps.db.users.get(downlineId)]);
    if (!mode || !user?.membership || user.membership.uplineId !== uplineId) return undefined;
    return { user, membership: user.membership, level: levelOf(mode, user.membership.levelId) };
  }

  /**
   * Suspends, resumes, removes one of the upline's downlines, moves them to another level or sets
   * their daily spend limit (1..`maxDailyLimit` rupiah, or none); the downline is told in the same
   * commit. A change that is in place already writes nothing.
   */
  async changeDownline(
    uplineId: number,
    downlineId: number,
    change: DownlineChange,
  ): Promise<{ kind: 'changed' | 'unchanged'; entry: DownlineEntry | undefined } | { kind: 'not-yours' | 'unknown-level' | 'bad-limit' }> {
    type Result =
      { kind: 'changed' | 'unchanged'; entry: DownlineEntry | undefined } | { kind: 'not-yours' | 'unknown-level' | 'bad-limit' };
    if (change.kind === 'limit' && change.amount !== undefined) {
      if (!Number.isSafeInteger(change.amount) || change.amount < 1 || change.amount > maxDailyLimit) return { kind: 'bad-limit' };
    }
    return this.change([uplineId, downlineId], (users): Change<Result> => {
      const upline = users.get(uplineId);
      const downline = users.get(downlineId);
      const mode = upline?.downlineMode;
      const membership = downline?.membership;
      if (!upline || !mode || !downline || !membership || membership.uplineId !== uplineId) return answer({ kind: 'not-yours' });
      let next: Membership | undefined;
      if (change.kind === 'remove') next = undefined;
      else if (change.kind === 'level') {
        if (!mode.levels.some((l) => l.id === change.levelId)) return answer({ kind: 'unknown-level' });
        next = { ...membership, levelId: change.levelId };
      } else if (change.kind === 'limit') {
        const { dailyLimit: _old, ...rest } = membership;
        next = change.amount === undefined ? rest : { ...rest, dailyLimit: change.amount };
      } else next = { ...membership, status: change.kind === 'suspend' ? 'suspended' : 'active' };
      const entry = next ? { user: { ...downline, membership: next }, membership: next, level: levelOf(mode, next.levelId) } : undefined;
      if (next && JSON.stringify(next) === JSON.stringify(membership)) return answer({ kind: 'unchanged', entry });
      // A removed downline is remembered, so the upline's reports of all downlines still count what they bought.
      const former = [...(mode.formerDownlines ?? []).filter((id) => id !== downlineId), downlineId].slice(-downlineLimits.formerKept);
      const uplinePatch = next ? [] : [{ id: uplineId, patch: { downlineMode: { ...mode, formerDownlines: former } } }];
      return {
        patches: [{ id: downlineId, patch: { membership: next } }, ...uplinePatch],
        notify: [this.deps.messages.changed(downline, upline, change, next ? levelOf(mode, next.levelId) : undefined)],
        result: { kind: 'changed', entry },
      };
    });
  }

  private change<R>(ids: readonly number[], change: (users: ReadonlyMap<number, UserRecord>) => Change<R>): Promise<R> {
    return transactUsers(this.deps, ids, change);
  }

  /** Changes the user's open downline mode; `{ refused: 'not-open' }` when it is not open. */
  private updateMode<R>(
    userId: number,
    update: (mode: DownlineMode) => { mode?: DownlineMode; result: R },
  ): Promise<R | { refused: 'not-open' }> {
    return this.change([userId], (users): Change<R | { refused: 'not-open' }> => {
      const mode = users.get(userId)?.downlineMode;
      if (!mode) return answer({ refused: 'not-open' as const });
      const made = update(mode);
      return { patches: made.mode ? [{ id: userId, patch: { downlineMode: made.mode } }] : [], result: made.result };
    });
  }
}

function membershipOf(uplineId: number, request: JoinRequest, level: DownlineLevel, at: Date): Membership {
  return { uplineId, levelId: level.id, status: 'active', joinedAt: at.toISOString(), requestId: request.id };
}

/** `users.transact`, waking the outbox when the change queued a message (the downline and wallet services' one way to change users). */
export async function transactUsers<R>(
  deps: { db: Db; onQueued?: (() => void) | undefined },
  ids: readonly number[],
  change: (users: ReadonlyMap<number, UserRecord>) => UsersChange<R>,
): Promise<R> {
  let queued = false;
  const result = await deps.db.users.transact(ids, (users) => {
    const made = change(users);
    queued = (made.notify?.length ?? 0) > 0;
    return made;
  });
  if (queued) deps.onQueued?.();
  return result;
}
