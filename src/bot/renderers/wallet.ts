import type { TranslateFunction } from '@grammyjs/i18n';
import { walletLimits, type DepositAnswer, type DepositDecision, type FormerWallet } from '../../services/wallets.ts';
import type { LedgerEntry } from '../../store/records/ledger.ts';
import { displayName } from '../../notify/downline-notices.ts';
import { formatRupiah, formatWibIn } from '../../text/format.ts';

/** The answer to /deposit: the unique amount, the code, until when, and the upline's payment instructions; or why not. */
export function renderDepositAnswer(t: TranslateFunction, answer: DepositAnswer): string {
  switch (answer.kind) {
    case 'requested':
      return t('wallet-deposit-ticket', {
        total: formatRupiah(answer.request.total),
        amount: formatRupiah(answer.request.amount),
        code: String(answer.request.code),
        until: formatWibIn(t, answer.request.expiresAt),
        name: displayName(answer.upline),
        payinfo: answer.payInfo,
      });
    case 'no-pay-info':
      return t('wallet-deposit-no-pay-info', { name: displayName(answer.upline) });
    case 'too-many':
      return t('wallet-deposit-too-many', {
        count: answer.open.length,
        list: answer.open.map((r) => `${formatRupiah(r.total)} (${formatWibIn(t, r.expiresAt)})`).join(', '),
      });
    case 'bad-amount':
      return t('wallet-deposit-bad-amount', { min: formatRupiah(walletLimits.minDeposit), max: formatRupiah(walletLimits.maxDeposit) });
    default:
      return t(`wallet-deposit-${answer.kind}`);
  }
}

/** One statement line: when, what, the signed amount, the balance after. */
function statementLine(t: TranslateFunction, entry: LedgerEntry): string {
  const amount = entry.amount === 0 ? '' : ` ${entry.amount > 0 ? '+' : '−'}${formatRupiah(Math.abs(entry.amount))}`;
  const note = entry.kind === 'adjust' ? entry.reason : entry.kind === 'deposit' ? undefined : entry.refId;
  return t('wallet-statement-line', {
    time: formatWibIn(t, entry.createdAt),
    what: t(`wallet-kind-${entry.kind}`),
    amount,
    balance: formatRupiah(entry.balance),
    note: note === undefined ? '' : ` · ${note}`,
  });
}

/** A /mutasi page (0 the newest): newest first, each with the balance after it. */
export function renderStatement(t: TranslateFunction, entries: readonly LedgerEntry[], page: number): string {
  if (entries.length === 0) return page === 0 ? t('wallet-statement-empty') : t('wallet-statement-no-more');
  return [t('wallet-statement-title', { page: page + 1 }), ...entries.map((entry) => statementLine(t, entry))].join('\n');
}

/** Who keeps a former downline's money, and that they are the one to ask for it. */
export function formerNote(t: TranslateFunction, former: FormerWallet): string {
  const name = former.upline ? displayName(former.upline) : '-';
  const held = former.summary.openHolds > 0 ? `\n${t('wallet-former-held', { count: former.summary.openHolds })}` : '';
  return `${t('wallet-former-note', { name })}${held}`;
}

/** A removed downline's /saldo: the wallet their former upline still keeps. */
export function renderFormerWallet(t: TranslateFunction, former: FormerWallet, now: Date): string {
  return [t('wallet-former', { amount: formatRupiah(former.summary.balance), time: formatWibIn(t, now) }), formerNote(t, former)].join(
    '\n',
  );
}

/** The deposit request the upline answered, as its message reads afterwards (no buttons). */
export function renderDecidedDeposit(t: TranslateFunction, decided: Exclude<DepositDecision, { kind: 'unknown' }>, name: string): string {
  const base = { name, total: formatRupiah(decided.request.total) };
  if (decided.kind === 'accepted') return t('wallet-request-accepted', { ...base, balance: formatRupiah(decided.balance) });
  return t(`wallet-request-${decided.kind}`, base);
}
