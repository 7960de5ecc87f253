/**
 * The wallet messages the bot sends on its own (a deposit request to the upline, each movement of
 * a wallet to its downline), in the recipient's language, as outbox items. What a downline is sent
 * names amounts of their own wallet only: never the upline's cost, margin or provider balance.
 */
import type { Locale } from '../domain.ts';
import type { WalletMessages } from '../services/wallets.ts';
import type { DepositRequest, UserRecord } from '../store/records/users.ts';
import { formatRupiah, formatWibIn } from '../text/format.ts';
import { displayName, htmlMessage, translatorFor } from './downline-notices.ts';

type Translate = (key: string, variables?: Record<string, string | number>) => string;

interface WalletNoticesDeps {
  translate: (locale: string, key: string, variables?: Record<string, string | number>) => string;
  defaultLocale: Locale;
  /** ✅ Terima / ❌ Tolak under a deposit request. */
  requestKeyboard: (t: Translate, request: DepositRequest) => { inline_keyboard: unknown[][] };
}

export function createWalletNotices(deps: WalletNoticesDeps): WalletMessages {
  const tFor = (user: UserRecord) => translatorFor(deps, user);
  const send = htmlMessage;
  return {
    request(upline, downline, request) {
      const t = tFor(upline);
      const text = t('wallet-request', {
        name: displayName(downline),
        id: String(downline.id),
        total: formatRupiah(request.total),
        amount: formatRupiah(request.amount),
        code: String(request.code),
        until: formatWibIn(t, request.expiresAt),
      });
      return send(upline.id, 'wallet-request', text, deps.requestKeyboard(t, request));
    },
    credited(downline, upline, request, entry) {
      const t = tFor(downline);
      const text = t('wallet-credited', {
        name: displayName(upline),
        total: formatRupiah(request.total),
        balance: formatRupiah(entry.balance),
      });
      return send(downline.id, 'wallet-credited', text);
    },
    rejected(downline, upline, request) {
      const t = tFor(downline);
      return send(downline.id, 'wallet-rejected', t('wallet-rejected', { name: displayName(upline), total: formatRupiah(request.total) }));
    },
    adjusted(downline, upline, entry) {
      const t = tFor(downline);
      const text = t(entry.amount > 0 ? 'wallet-adjusted-add' : 'wallet-adjusted-deduct', {
        name: displayName(upline),
        amount: formatRupiah(Math.abs(entry.amount)),
        reason: entry.reason ?? '-',
        balance: formatRupiah(entry.balance),
      });
      return send(downline.id, 'wallet-adjusted', text);
    },
  };
}
