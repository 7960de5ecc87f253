/**
 * The messages of downlines the bot sends on its own (a join request to the upline, its outcome to
 * the joiner, a change to a downline), in the recipient's language, as outbox items.
 */
import type { Locale } from '../domain.ts';
import type { DownlineMessages } from '../services/downlines.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import { formatRupiah } from '../text/format.ts';
import { userLocale, type DownlineMode, type JoinRequest, type UserRecord } from '../store/records/users.ts';

type Translate = (key: string, variables?: Record<string, string | number>) => string;

interface DownlineNoticesDeps {
  translate: (locale: string, key: string, variables?: Record<string, string | number>) => string;
  defaultLocale: Locale;
  /** The approve (one per level) and decline buttons under a join request. */
  requestKeyboard: (t: Translate, request: JoinRequest, mode: DownlineMode) => { inline_keyboard: unknown[][] };
}

/** A user's name as the other side sees it: first name, and @username when there is one. */
export function displayName(user: Pick<UserRecord, 'firstName' | 'username'>): string {
  return user.username === undefined ? user.firstName : `${user.firstName} (@${user.username})`;
}

/** A translate function in `user`'s language (for the messages of downlines and their wallets). */
export function translatorFor(
  deps: { translate: (locale: string, key: string, variables?: Record<string, string | number>) => string; defaultLocale: Locale },
  user: UserRecord,
): Translate {
  const locale = userLocale(user, deps.defaultLocale);
  return (key, variables) => deps.translate(locale, key, variables);
}

/** An HTML message to `chatId` for the outbox, with its buttons if any. */
export function htmlMessage(chatId: number, kind: string, text: string, replyMarkup?: { inline_keyboard: unknown[][] }): NewOutboxItem {
  return { chatId, kind, payload: { type: 'send', text, parseMode: 'HTML', ...(replyMarkup ? { replyMarkup } : {}) } };
}

export function createDownlineNotices(deps: DownlineNoticesDeps): DownlineMessages {
  const tFor = (user: UserRecord) => translatorFor(deps, user);
  const send = htmlMessage;
  return {
    request(upline, request, mode) {
      const t = tFor(upline);
      const text = t('downline-request', { name: displayName(request), id: request.userId });
      return send(upline.id, 'downline-request', text, deps.requestKeyboard(t, request, mode));
    },
    joined(upline, request, level) {
      return send(upline.id, 'downline-joined', tFor(upline)('downline-joined-auto', { name: displayName(request), level: level.name }));
    },
    outcome(joiner, upline, outcome) {
      const t = tFor(joiner);
      const name = displayName(upline);
      const text =
        outcome.kind === 'approved'
          ? t('downline-outcome-approved', { name, level: outcome.level.name })
          : outcome.kind === 'declined'
            ? t('downline-outcome-declined', { name })
            : t(`downline-outcome-void-${outcome.why}`, { name });
      return send(joiner.id, 'downline-outcome', text);
    },
    changed(downline, upline, change, level) {
      const t = tFor(downline);
      const name = displayName(upline);
      const text =
        change.kind === 'level'
          ? t('downline-changed-level', { name, level: level?.name ?? '' })
          : change.kind === 'limit'
            ? change.amount === undefined
              ? t('downline-changed-limit-off', { name })
              : t('downline-changed-limit', { name, amount: formatRupiah(change.amount) })
            : t(`downline-changed-${change.kind}`, { name });
      return send(downline.id, 'downline-changed', text);
    },
  };
}
