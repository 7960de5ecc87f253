import { InlineKeyboard } from 'grammy';
import { depositDecisionData, walletData } from '../callback-data/wallet.ts';
import { addPageButtons } from './rows.ts';
import { depositPresets } from '../../services/wallets.ts';
import type { DepositRequest } from '../../store/records/users.ts';
import { formatRupiah } from '../../text/format.ts';

/** A translate function as the bot and the notices both have it. */
type Translate = (key: string, variables?: Record<string, string | number>) => string;

/** ✅ Terima / ❌ Tolak under a deposit request. */
export function createDepositDecisionKeyboard(t: Translate, request: DepositRequest): InlineKeyboard {
  return new InlineKeyboard()
    .text(t('wallet-button-accept'), depositDecisionData.pack({ action: 'ok', request: request.id }))
    .text(t('wallet-button-reject'), depositDecisionData.pack({ action: 'no', request: request.id }));
}

/** The common amounts to deposit, three to a row. */
export function createDepositAmountsKeyboard(): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  depositPresets.forEach((amount, index) => {
    keyboard.text(formatRupiah(amount), walletData.pack({ action: 'dep', id: String(amount) }));
    if (index % 3 === 2) keyboard.row();
  });
  return keyboard;
}

/** Under a downline's /saldo: deposit and statement. */
export function createWalletKeyboard(t: Translate, options: { deposit?: boolean } = {}): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  // A former downline's wallet takes no deposits: only its statement.
  if (options.deposit ?? true) keyboard.text(t('wallet-button-deposit'), walletData.pack({ action: 'dep', id: '-' }));
  return keyboard.text(t('wallet-button-statement'), walletData.pack({ action: 'mut', id: '0' }));
}

/** ‹ Previous / Next › under a statement page. */
export function createStatementKeyboard(t: Translate, page: number, hasMore: boolean): InlineKeyboard {
  return addPageButtons(new InlineKeyboard(), t, page, hasMore, (p) => walletData.pack({ action: 'pg', id: String(p) }));
}

/** ➕ Deposit alone (under a purchase the wallet could not pay): the amount buttons follow. */
export function createDepositKeyboard(t: Translate): InlineKeyboard {
  return new InlineKeyboard().text(t('wallet-button-deposit'), walletData.pack({ action: 'dep', id: '-' }));
}
