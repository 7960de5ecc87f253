import type { Locale } from '../domain.ts';
import type { Store } from '../store/store.ts';
import type { NewOutboxItem } from '../store/outbox.ts';
import type { TransactionRecord } from '../store/schema.ts';
import type { AccountProblem } from '../providers/factory.ts';
import type { TextVariable } from '../text/html.ts';

/** Translates outside a chat context (jobs, outbox): `translate(locale, key, vars)`; it HTML-escapes the variables like `ctx.t`. */
export type Translate = (locale: string, key: string, variables?: Record<string, TextVariable>) => string;

/** Formats a transaction receipt as HTML with a context-free translate function. */
export type ReceiptFormatter = (
  t: (key: string, variables?: Record<string, TextVariable>) => string,
  tx: TransactionRecord,
  options?: { maskTarget?: boolean },
) => string;

export interface NoticesDeps {
  store: Store;
  translate: Translate;
  formatReceipt: ReceiptFormatter;
  defaultLocale: Locale;
  /** Chat of the operator feed (ADMIN_CHAT_ID), if any. */
  adminChatId: number | undefined;
}

/**
 * Builds the messages the bot sends on its own, in the recipient's language, as outbox items.
 * Pure: it queues nothing itself; callers put the items in the store (a settlement does so in the
 * same write as the final status).
 */
export interface Notices {
  /**
   * For a settled transaction: the Pending message the owner saw edited to the final state; a new
   * receipt message to the owner when nobody saw the result (`notifyOwner`); a masked post to the
   * owner's linked group; a line in the operator feed for Gagal and Unresolved.
   */
  settlement(tx: TransactionRecord, options: { notifyOwner: boolean }): NewOutboxItem[];
  lowBalance(userId: number, balance: number, threshold: number, formatted: { balance: string; threshold: string }): NewOutboxItem;
  /** The account's re-checks are paused (credentials refused, IP blocked, disconnected). */
  accountPaused(userId: number, reason: string): NewOutboxItem[];
  /**
   * The operator-feed line asking to review an open transaction the provider had acknowledged but
   * keeps refusing on re-checks (400/402/404): it may hold the money, so nobody tells the user
   * "not charged"; the operator looks at the provider's side. Deduplicated per ref id.
   */
  transactionReview(tx: TransactionRecord, details: { refusals: number; reason: string }): NewOutboxItem[];
  /** The operator-feed line for a provider refusing a stored account (401/403). */
  accountProblem(problem: AccountProblem, publicIp: string | undefined): NewOutboxItem[];
  /** A line for the operator feed, or nothing when no ADMIN_CHAT_ID is set. */
  operator(key: string, variables?: Record<string, string | number>, dedupeKey?: string): NewOutboxItem[];
}

export function createNotices(deps: NoticesDeps): Notices {
  const localeOf = (userId: number) => deps.store.users.get(userId)?.locale ?? deps.defaultLocale;
  const tFor = (locale: string) => (key: string, variables?: Record<string, TextVariable>) => deps.translate(locale, key, variables);
  const text = (chatId: number, kind: string, body: string, dedupeKey?: string): NewOutboxItem => ({
    chatId,
    kind,
    payload: { type: 'send', text: body, parseMode: 'HTML' },
    dedupeKey,
  });

  const operator: Notices['operator'] = (key, variables, dedupeKey) => {
    if (deps.adminChatId === undefined) return [];
    // Operator lines carry ids, not amounts: numbers as plain text (Fluent would group 700000001).
    const safe = Object.fromEntries(Object.entries(variables ?? {}).map(([k, v]) => [k, String(v)]));
    return [text(deps.adminChatId, 'operator', tFor(deps.defaultLocale)(key, safe), dedupeKey)];
  };

  return {
    settlement(tx, { notifyOwner }) {
      const t = tFor(localeOf(tx.userId));
      const headline = t(`notify-settled-${headlineKey(tx.status)}`, { product: tx.productName, target: tx.target });
      const receipt = deps.formatReceipt(t, tx);
      const items: NewOutboxItem[] = [];
      if (tx.pendingMessage) {
        items.push({
          chatId: tx.pendingMessage.chatId,
          kind: 'settlement-edit',
          payload: { type: 'edit', messageId: tx.pendingMessage.messageId, text: `${headline}\n\n${receipt}`, parseMode: 'HTML' },
          dedupeKey: `edit:${tx.refId}`,
        });
      }
      if (notifyOwner) items.push(text(tx.chatId, 'settlement', `${headline}\n\n${receipt}`, `settle:${tx.refId}`));
      const group = deps.store.groups.byOwner(tx.userId)[0];
      if (group) {
        const groupT = tFor(deps.defaultLocale);
        const masked = deps.formatReceipt(groupT, tx, { maskTarget: true });
        items.push(
          text(
            group.chatId,
            'group-settlement',
            `${groupT(`notify-settled-${headlineKey(tx.status)}`, { product: tx.productName, target: '' })}\n\n${masked}`,
            `group:${tx.refId}`,
          ),
        );
      }
      if (tx.status === 'Gagal' || tx.status === 'Unresolved') {
        items.push(
          ...operator(`operator-transaction-${tx.status === 'Gagal' ? 'failed' : 'unresolved'}`, {
            refId: tx.refId,
            userId: tx.userId,
            code: tx.code,
          }),
        );
      }
      return items;
    },
    lowBalance(userId, _balance, _threshold, formatted) {
      return text(userId, 'low-balance', tFor(localeOf(userId))('alert-low-balance', formatted), `low-balance:${userId}`);
    },
    accountPaused(userId, reason) {
      const t = tFor(localeOf(userId));
      // The operator hears of a refused account from the provider hook (accountProblem), once.
      return [
        text(
          userId,
          'account-paused',
          t(`notify-paused-${reason === 'ip_blocked' ? 'ip' : reason === 'credentials' ? 'credentials' : 'disconnected'}`),
          `paused:${userId}`,
        ),
      ];
    },
    transactionReview(tx, { refusals, reason }) {
      return operator(
        'operator-transaction-review',
        { refId: tx.refId, trxId: tx.trxId ?? '-', code: tx.code, userId: tx.userId, count: refusals, reason },
        `review:${tx.refId}`,
      );
    },
    accountProblem(problem, publicIp) {
      const service = tFor(deps.defaultLocale)(`service-${problem.service}`);
      return operator('operator-account-problem', { userId: problem.userId, service, reason: problem.kind, ip: publicIp ?? '-' });
    },
    operator,
  };
}

function headlineKey(status: string): string {
  if (status === 'Sukses') return 'success';
  if (status === 'Gagal') return 'failed';
  if (status === 'Rejected') return 'rejected';
  return 'unresolved';
}
