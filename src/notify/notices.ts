import type { Locale } from '../domain.ts';
import type { Db } from '../store/db.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import { userLocale, type UserRecord } from '../store/records/users.ts';
import type { LedgerEntry } from '../store/records/ledger.ts';
import { formatRupiah, maskTarget } from '../text/format.ts';
import { downlineRefusalAlertMs, isUplineRefusal, restoredUnsentMessage, type TransactionRecord } from '../store/records/transactions.ts';
import type { AccountProblem } from '../providers/factory.ts';
import type { TextVariable } from '../text/html.ts';
import { formatSettlementPing, statusIcon, statusWord } from '../text/receipt.ts';
import { formatPriceDigest, type DigestChange } from '../text/price-digest.ts';
import type { Burst } from './operator-feed.ts';

/** A context-free translate function (it HTML-escapes the variables like `ctx.t`). */
type BoundTranslate = (key: string, variables?: Record<string, TextVariable>) => string;

/** An inline keyboard as plain JSON (Telegram's shape), for an outbox payload. */
interface KeyboardJson {
  inline_keyboard: unknown[][];
}

interface NoticesDeps {
  db: Db;
  /** Translates outside a chat context: `translate(locale, key, vars)`. */
  translate: (locale: string, key: string, variables?: Record<string, TextVariable>) => string;
  /** A transaction receipt as HTML. */
  formatReceipt: (t: BoundTranslate, tx: TransactionRecord, options?: { maskTarget?: boolean; hideCost?: boolean }) => string;
  /** The buttons under a receipt in the owner's chat (buy again, copy SN), if any. */
  receiptKeyboard?: (t: BoundTranslate, tx: TransactionRecord) => KeyboardJson | undefined;
  /** The result message of a multi-line purchase, by the renderer the buy conversation uses. */
  formatPurchaseResults?: (t: BoundTranslate, transactions: TransactionRecord[]) => string;
  /** The buttons under that result (copy SN and customer receipt of each Sukses line), if any. */
  resultsKeyboard?: (t: BoundTranslate, transactions: TransactionRecord[]) => KeyboardJson | undefined;
  defaultLocale: Locale;
  /** Chat of the operator feed (ADMIN_CHAT_ID), if any. */
  adminChatId: number | undefined;
}

/** Builds the messages the bot sends on its own, in the recipient's language, as outbox items; it queues nothing itself. */
export interface Notices {
  /**
   * For a settled transaction, one receipt in the owner's chat: the "in process" message
   * (`pendingMessage`) or a multi-line purchase's result message (`summaryMessage`, with `batch`)
   * edited, else a new message; when nobody saw the result (`notifyOwner`) a one-line ping replies
   * to the edited one. Also a masked post to the linked group, for a downline's purchase one to the
   * upline's linked group when they turned those on, and an operator line for Gagal and Unresolved.
   */
  settlement(tx: TransactionRecord, options: SettlementOptions): Promise<NewOutboxItem[]>;
  /** The low-balance alert, with the balance and threshold formatted as money. */
  lowBalance(userId: number, formatted: { balance: string; threshold: string }): Promise<NewOutboxItem>;
  /** To a downline: their upline decided a held purchase (`entry`: its final or refund, with the balance after). */
  heldResolved(downline: UserRecord, tx: TransactionRecord, entry: LedgerEntry): NewOutboxItem;
  /** A price-change digest in the subscriber's language and, with `groupChatId`, one for their group (no cost or margin). */
  priceDigest(
    userId: number,
    changes: readonly DigestChange[],
    options: { groupChatId?: number; dedupeKey: string },
  ): Promise<NewOutboxItem[]>;
  /** The account's re-checks are paused (credentials refused, IP blocked, disconnected). */
  accountPaused(userId: number, reason: string): Promise<NewOutboxItem[]>;
  /** The operator line asking to review an acknowledged transaction whose re-checks keep being refused (it may hold the money). */
  transactionReview(tx: TransactionRecord, details: { refusals: number; reason: string }): NewOutboxItem[];
  /** The operator-feed line for a provider refusing a stored account (401/403); with `burst`, the grouped line. */
  accountProblem(problem: AccountProblem, publicIp: string | undefined, burst?: Burst): NewOutboxItem[];
  /** A line for the operator feed (none without ADMIN_CHAT_ID); with `burst`, how often it came again. */
  operator(key: string, variables?: Record<string, string | number>, dedupeKey?: string, burst?: Burst): NewOutboxItem[];
}

interface SettlementOptions {
  /** Nobody is looking at this result (the watcher settled it): the owner gets a message that pings. */
  notifyOwner: boolean;
  /** For a line of a multi-line purchase with a result message: every transaction of it, in line order. */
  batch?: TransactionRecord[];
}

export function createNotices(deps: NoticesDeps): Notices {
  const localeOf = async (userId: number) => userLocale(await deps.db.users.get(userId), deps.defaultLocale);
  const tFor = (locale: string) => (key: string, variables?: Record<string, TextVariable>) => deps.translate(locale, key, variables);
  const text = (chatId: number, kind: string, body: string, dedupeKey?: string): NewOutboxItem => ({
    chatId,
    kind,
    payload: { type: 'send', text: body, parseMode: 'HTML' },
    dedupeKey,
  });

  const operator: Notices['operator'] = (key, variables, dedupeKey, burst) => {
    if (deps.adminChatId === undefined) return [];
    // Operator lines carry ids, not amounts: numbers as plain text (Fluent would group 700000001).
    const safe = Object.fromEntries(Object.entries(variables ?? {}).map(([k, v]) => [k, String(v)]));
    const t = tFor(deps.defaultLocale);
    const body = burst ? `${t(key, safe)}\n${t('operator-burst', { ...burst })}` : t(key, safe);
    return [text(deps.adminChatId, 'operator', body, burst ? undefined : dedupeKey)];
  };

  return {
    async settlement(tx, { notifyOwner, batch }) {
      const t = tFor(await localeOf(tx.userId));
      const headline = t(`notify-settled-${headlineKey(tx)}`, { product: tx.productName, target: tx.target });
      const receipt = `${headline}\n\n${deps.formatReceipt(t, tx)}`;
      const replyMarkup = deps.receiptKeyboard?.(t, tx);
      const keyboard = replyMarkup ? { replyMarkup } : {};
      const items: NewOutboxItem[] = [];
      /** The one-line message that pings the owner, as a reply to the message that shows the result. */
      const ping = (chatId: number, replyTo: number): NewOutboxItem => ({
        chatId,
        kind: 'settlement',
        payload: { type: 'send', text: formatSettlementPing(t, tx), parseMode: 'HTML', replyTo },
        dedupeKey: `settle:${tx.refId}`,
      });
      const summary = tx.summaryMessage;
      if (tx.pendingMessage) {
        const { chatId, messageId } = tx.pendingMessage;
        items.push({
          chatId,
          kind: 'settlement-edit',
          // Gone or too old to edit: the receipt comes as a new message instead (still one receipt).
          payload: { type: 'edit', messageId, text: receipt, parseMode: 'HTML', sendIfGone: true, ...keyboard },
          dedupeKey: `edit:${tx.refId}`,
        });
        if (notifyOwner) items.push(ping(chatId, messageId));
      } else if (summary && batch && batch.length > 0 && deps.formatPurchaseResults) {
        const buttons = deps.resultsKeyboard?.(t, batch);
        items.push({
          chatId: summary.chatId,
          kind: 'settlement-summary',
          payload: {
            type: 'edit',
            messageId: summary.messageId,
            text: deps.formatPurchaseResults(t, batch),
            parseMode: 'HTML',
            ...(buttons ? { replyMarkup: buttons } : {}),
          },
          dedupeKey: `summary:${tx.refId}`,
        });
        if (notifyOwner) items.push(ping(summary.chatId, summary.messageId));
      } else if (notifyOwner) {
        items.push({
          chatId: tx.chatId,
          kind: 'settlement',
          payload: { type: 'send', text: receipt, parseMode: 'HTML', ...keyboard },
          dedupeKey: `settle:${tx.refId}`,
        });
      }
      const group = (await deps.db.groups.byOwner(tx.userId))[0];
      if (group) {
        const groupT = tFor(deps.defaultLocale);
        const masked = deps.formatReceipt(groupT, tx, { maskTarget: true, hideCost: true });
        items.push(
          text(
            group.chatId,
            'group-settlement',
            `${groupT(`notify-settled-${headlineKey(tx)}`, { product: tx.productName, target: '' })}\n\n${masked}`,
            `group:${tx.refId}`,
          ),
        );
      }
      items.push(...(await downlineHeld(deps, tx)), ...(await downlineRefusedAlert(deps, tx)));
      items.push(...(await downlineGroupNotice(deps, tx)));
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
    async lowBalance(userId, formatted) {
      return text(userId, 'low-balance', tFor(await localeOf(userId))('alert-low-balance', formatted), `low-balance:${userId}`);
    },
    heldResolved: (downline, tx, entry) => heldResolved(deps, downline, tx, entry),
    async priceDigest(userId, changes, { groupChatId, dedupeKey }) {
      const items = [
        text(
          userId,
          'price-digest',
          formatPriceDigest(tFor(await localeOf(userId)), changes, { forGroup: false }),
          `${dedupeKey}:${userId}`,
        ),
      ];
      if (groupChatId !== undefined) {
        const body = formatPriceDigest(tFor(deps.defaultLocale), changes, { forGroup: true });
        items.push(text(groupChatId, 'group-price-digest', body, `${dedupeKey}:${groupChatId}`));
      }
      return items;
    },
    async accountPaused(userId, reason) {
      const t = tFor(await localeOf(userId));
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
    accountProblem(problem, publicIp, burst) {
      const service = tFor(deps.defaultLocale)(`service-${problem.service}`);
      const variables = { userId: problem.userId, service, reason: problem.kind, ip: publicIp ?? '-' };
      return operator('operator-account-problem', variables, undefined, burst);
    },
    operator,
  };
}

/**
 * For a downline's settled purchase, the one line posted to the upline's linked group when the
 * upline turned group notices on (`/downline grup nyala`): the downline's first name, product,
 * masked target and status; never a price, cost or margin (a group is more people than the upline).
 */
async function downlineGroupNotice(
  deps: Pick<NoticesDeps, 'db' | 'translate' | 'defaultLocale'>,
  tx: TransactionRecord,
): Promise<NewOutboxItem[]> {
  if (!tx.upline) return [];
  const [upline, downline] = await Promise.all([deps.db.users.get(tx.upline.id), deps.db.users.get(tx.userId)]);
  if (!upline?.downlineMode?.groupNotices) return [];
  const group = (await deps.db.groups.byOwner(upline.id))[0];
  if (!group) return [];
  const t = (key: string, variables?: Record<string, TextVariable>) => deps.translate(deps.defaultLocale, key, variables);
  const body = t('notify-downline-purchase', {
    name: downline?.firstName ?? '-',
    icon: statusIcon(tx),
    status: statusWord(t, tx),
    product: tx.productName,
    target: maskTarget(tx.target),
  });
  return [
    {
      chatId: group.chatId,
      kind: 'group-downline-purchase',
      payload: { type: 'send', text: body, parseMode: 'HTML' },
      dedupeKey: `dlgroup:${tx.refId}`,
    },
  ];
}

function headlineKey({ status, message, upline }: TransactionRecord): string {
  // A downline's purchase: the wallet was refunded (or is still held), and the upline is who to ask.
  const wallet = upline ? '-wallet' : '';
  if (status === 'Unresolved' && message === restoredUnsentMessage) return `restored${wallet}`;
  if (status === 'Sukses') return 'success';
  if (status === 'Gagal') return `failed${wallet}`;
  if (status === 'Rejected') return `rejected${wallet}`;
  return `unresolved${wallet}`;
}

/** To the upline of a downline's purchase left with its hold open (Unresolved): what it is and how to decide it. */
async function downlineHeld(deps: NoticesDeps, tx: TransactionRecord): Promise<NewOutboxItem[]> {
  if (!tx.upline || tx.status !== 'Unresolved' || tx.price <= 0) return [];
  const [upline, downline] = await Promise.all([deps.db.users.get(tx.upline.id), deps.db.users.get(tx.userId)]);
  const t = (key: string, variables: Record<string, TextVariable>) =>
    deps.translate(userLocale(upline, deps.defaultLocale), key, variables);
  const body = t('notify-downline-held', {
    name: downline?.firstName ?? String(tx.userId),
    product: tx.productName,
    target: maskTarget(tx.target),
    price: formatRupiah(tx.price),
    refId: tx.refId,
  });
  return [
    {
      chatId: tx.upline.id,
      kind: 'downline-held',
      payload: { type: 'send', text: body, parseMode: 'HTML' },
      dedupeKey: `held:${tx.refId}`,
    },
  ];
}

/** To a downline: their upline decided a held purchase (`entry` its final or refund, with the balance after). */
function heldResolved(deps: NoticesDeps, downline: UserRecord, tx: TransactionRecord, entry: LedgerEntry): NewOutboxItem {
  const variables = {
    product: tx.productName,
    target: maskTarget(tx.target),
    price: formatRupiah(tx.price),
    refId: tx.refId,
    balance: formatRupiah(entry.balance),
  };
  const body = deps.translate(
    userLocale(downline, deps.defaultLocale),
    `notify-held-${entry.kind === 'refund' ? 'refunded' : 'spent'}`,
    variables,
  );
  return {
    chatId: downline.id,
    kind: 'held-resolved',
    payload: { type: 'send', text: body, parseMode: 'HTML' },
    dedupeKey: `held-resolved:${tx.refId}`,
  };
}

/**
 * To the upline, with the settlement of a downline's purchase their account refused (its balance,
 * credentials, a blocked IP): the alert, in the same commit as the refund (a crash loses neither),
 * unless they were alerted in the last hour (`downlineRefusalAlertAt`, marked after the commit);
 * refusals settled before that mark share one pending item (its dedupe key).
 */
async function downlineRefusedAlert(deps: NoticesDeps, tx: TransactionRecord): Promise<NewOutboxItem[]> {
  if (!tx.upline || tx.status !== 'Rejected' || !isUplineRefusal(tx.message)) return [];
  const upline = await deps.db.users.get(tx.upline.id);
  const last = upline?.downlineRefusalAlertAt;
  const at = Date.parse(tx.settledAt ?? tx.updatedAt);
  if (last !== undefined && at - Date.parse(last) < downlineRefusalAlertMs) return [];
  const t = (key: string, variables?: Record<string, TextVariable>) =>
    deps.translate(userLocale(upline, deps.defaultLocale), key, variables);
  const body = t('alert-downline-refused', { reason: t(`alert-downline-refused-${tx.message ?? ''}`) });
  return [
    {
      chatId: tx.upline.id,
      kind: 'downline-refused',
      payload: { type: 'send', text: body, parseMode: 'HTML' },
      dedupeKey: `downline-refused:${tx.upline.id}`,
    },
  ];
}
