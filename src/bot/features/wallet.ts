import { InlineKeyboard, type CallbackQueryContext } from 'grammy';
import type { BotContext } from '../context.ts';
import { FastComposer } from '../composer.ts';
import { commandNames } from '../commands.ts';
import { quietly } from '../edits.ts';
import { readTap } from '../guards.ts';
import { isOneOf } from '../callback-data/read.ts';
import { depositDecisionData, walletData } from '../callback-data/wallet.ts';
import { addCopyButton } from '../keyboards/rows.ts';
import { createDepositAmountsKeyboard, createStatementKeyboard, createWalletKeyboard } from '../keyboards/wallet.ts';
import { formerNote, renderDecidedDeposit, renderDepositAnswer, renderFormerWallet, renderStatement } from '../renderers/wallet.ts';
import { walletLimits, type FormerWallet } from '../../services/wallets.ts';
import { displayName } from '../../notify/downline-notices.ts';
import { formatRupiah, formatWibIn } from '../../text/format.ts';

/**
 * Downlines' wallets (on with DOWNLINES=true, mounted before /saldo): a downline's /saldo shows
 * their wallet (never their upline's provider balance), /deposit asks for a unique amount to
 * transfer, /mutasi pages the statement; the upline sets payment instructions with /carabayar,
 * answers deposit requests with ✅ Terima / ❌ Tolak, and adds or deducts with /saldodl. Private
 * chats only; every change goes through the wallet service.
 */
export const walletFeature = new FastComposer<BotContext>();
const privateChat = walletFeature.chatType('private');

/**
 * An amount as people type it: `100000`, `100.000`, `Rp 100.000`, `100rb`, `100k`, `1jt`, `1,5jt`;
 * undefined for anything else.
 */
export function readAmount(text: string): number | undefined {
  const match = /^(?:rp\.?\s*)?(\d{1,3}(?:[.,]\d{3})+|\d+(?:[.,]\d{1,3})?|\d+)\s*(rb|ribu|k|jt|juta)?$/i.exec(text.trim());
  if (!match?.[1]) return undefined;
  const unit = match[2]?.toLowerCase();
  const digits = match[1];
  const grouped = /^\d{1,3}(?:[.,]\d{3})+$/.test(digits) && unit === undefined;
  const value = grouped ? Number(digits.replace(/[.,]/g, '')) : Number(digits.replace(',', '.'));
  const scale = unit === undefined ? 1 : unit === 'jt' || unit === 'juta' ? 1_000_000 : 1000;
  const amount = Math.round(value * scale);
  return Number.isSafeInteger(amount) && amount > 0 ? amount : undefined;
}

// /saldo of a downline: their wallet. A removed downline whose former upline still keeps money of
// theirs sees it (then their provider balance, if they connected an account). Anyone else goes on.
privateChat.command(commandNames('balance'), async (ctx, next) => {
  if (!ctx.account?.membership) {
    const former = await ctx.deps.services.wallets.heldElsewhere(ctx.from.id);
    if (!former) return next();
    await ctx.reply(renderFormerWallet(ctx.t, former, ctx.deps.now()), { reply_markup: createWalletKeyboard(ctx.t, { deposit: false }) });
    if (await ctx.deps.db.credentials.has(ctx.from.id, 'reseller')) return next();
    return;
  }
  const balance = await ctx.deps.services.wallets.balance(ctx.from.id);
  const upline = await ctx.deps.db.users.get(ctx.account.membership.uplineId);
  await ctx.reply(
    ctx.t('wallet-balance', {
      amount: formatRupiah(balance),
      name: upline ? displayName(upline) : '-',
      time: formatWibIn(ctx.t, ctx.deps.now()),
    }),
    { reply_markup: createWalletKeyboard(ctx.t) },
  );
});

privateChat.command(commandNames('deposit'), async (ctx) => {
  if (!ctx.account?.membership) {
    await ctx.reply(ctx.t('wallet-not-downline'));
    return;
  }
  if (ctx.match.trim() === '') {
    await ctx.reply(ctx.t('wallet-deposit-choose', { min: formatRupiah(walletLimits.minDeposit) }), {
      reply_markup: createDepositAmountsKeyboard(),
    });
    return;
  }
  const amount = readAmount(ctx.match);
  if (amount === undefined) {
    await ctx.reply(ctx.t('wallet-deposit-usage', { min: formatRupiah(walletLimits.minDeposit) }));
    return;
  }
  await askDeposit(ctx, amount);
});

/** Asks the wallet service for a deposit of `amount` and answers with the unique amount and the instructions. */
async function askDeposit(ctx: BotContext, amount: number): Promise<void> {
  const userId = ctx.from?.id;
  if (userId === undefined) return;
  const answer = await ctx.deps.services.wallets.requestDeposit(userId, amount);
  const keyboard = new InlineKeyboard();
  if (answer.kind === 'requested') addCopyButton(keyboard, ctx.t('wallet-button-copy-amount'), String(answer.request.total));
  await ctx.reply(renderDepositAnswer(ctx.t, answer), keyboard.inline_keyboard.length > 0 ? { reply_markup: keyboard } : {});
}

privateChat.command(commandNames('statement'), async (ctx) => {
  const former = ctx.account?.membership ? undefined : await ctx.deps.services.wallets.heldElsewhere(ctx.from.id);
  if (!ctx.account?.membership && !former) {
    await ctx.reply(ctx.t('wallet-not-downline'));
    return;
  }
  await replyStatement(ctx, 0, former);
});

/** A /mutasi page as a new message; a former downline's with the line saying who keeps the money. */
async function replyStatement(ctx: BotContext, page: number, former: FormerWallet | undefined, edit = false): Promise<void> {
  const userId = ctx.from?.id;
  if (userId === undefined) return;
  const shown = await ctx.deps.services.wallets.statement(userId, page);
  const text = renderStatement(ctx.t, shown.entries, page);
  const full = former ? `${text}\n\n${formerNote(ctx.t, former)}` : text;
  const reply_markup = createStatementKeyboard(ctx.t, page, shown.hasMore);
  if (edit) await quietly(ctx.editMessageText(full, { reply_markup }));
  else await ctx.reply(full, { reply_markup });
}

privateChat.command(commandNames('payinfo'), async (ctx) => {
  if (!ctx.account?.downlineMode) {
    await ctx.reply(ctx.t('downline-not-open'));
    return;
  }
  const text = ctx.match.trim();
  if (text === '') {
    const current = await ctx.deps.services.wallets.payInfo(ctx.from.id);
    await ctx.reply(current === undefined ? ctx.t('wallet-payinfo-none') : ctx.t('wallet-payinfo-current', { text: current }));
    return;
  }
  const saved = await ctx.deps.services.wallets.setPayInfo(ctx.from.id, text);
  await ctx.reply(ctx.t(`wallet-payinfo-${saved}`, { max: walletLimits.payInfoLength, text }));
});

privateChat.command(commandNames('dlbalance'), async (ctx) => {
  if (!ctx.account?.downlineMode) {
    await ctx.reply(ctx.t('downline-not-open'));
    return;
  }
  const match = /^(\S+)\s+([+-])\s*(\S+)\s+([\s\S]+)$/.exec(ctx.match.trim());
  const magnitude = match?.[3] === undefined ? undefined : readAmount(match[3]);
  const reason = match?.[4]?.trim() ?? '';
  if (!match?.[1] || magnitude === undefined || magnitude > walletLimits.maxAdjust || reason === '') {
    await ctx.reply(ctx.t('wallet-adjust-usage', { max: formatRupiah(walletLimits.maxAdjust) }));
    return;
  }
  if (reason.length > walletLimits.reasonLength) {
    await ctx.reply(ctx.t('wallet-adjust-reason-long', { max: walletLimits.reasonLength }));
    return;
  }
  const service = ctx.deps.services.wallets;
  const downline = await service.findDownline(ctx.from.id, match[1]);
  if (!downline) {
    await ctx.reply(ctx.t('wallet-adjust-not-yours', { who: match[1].slice(0, 40) }));
    return;
  }
  const amount = match[2] === '-' ? -magnitude : magnitude;
  // The update names the asking: a replay of it (after a crash, or Telegram sending it again) moves nothing twice.
  const done = await service.adjust(ctx.from.id, downline.id, amount, reason, `${ctx.update.update_id}`);
  const name = displayName(downline);
  if (done.kind === 'not-yours') await ctx.reply(ctx.t('wallet-adjust-not-yours', { who: match[1].slice(0, 40) }));
  else if (done.kind === 'held-elsewhere') await ctx.reply(ctx.t('wallet-adjust-held-elsewhere', { name }));
  else if (done.kind === 'former-deduct-only') {
    await ctx.reply(
      ctx.t('wallet-adjust-former', { name, balance: formatRupiah(done.balance), plain: String(done.balance), id: String(downline.id) }),
    );
  } else if (done.kind === 'short') {
    await ctx.reply(ctx.t('wallet-adjust-short', { name, amount: formatRupiah(magnitude), balance: formatRupiah(done.balance) }));
  } else {
    await ctx.reply(
      ctx.t(amount > 0 ? 'wallet-adjust-added' : 'wallet-adjust-deducted', {
        name,
        amount: formatRupiah(magnitude),
        reason,
        balance: formatRupiah(done.entry.balance),
      }),
    );
  }
});

walletFeature.callbackQuery(walletData.filter(), async (ctx) => {
  const tap = await readTap(ctx, walletData, (f) => (isOneOf(['dep', 'mut', 'pg'] as const, f.action) ? f : undefined), {
    privateOnly: true,
  });
  if (!tap) return;
  // A former downline still pages their statement; deposits are for downlines only.
  const former = ctx.account?.membership ? undefined : await ctx.deps.services.wallets.heldElsewhere(ctx.from.id);
  if (!ctx.account?.membership && (!former || tap.action === 'dep')) {
    await ctx.answerCallbackQuery({ text: ctx.t('wallet-not-downline') });
    return;
  }
  await ctx.answerCallbackQuery();
  if (tap.action === 'dep') {
    const amount = tap.id === '-' ? undefined : Number(tap.id);
    if (amount === undefined || !Number.isSafeInteger(amount)) {
      await ctx.reply(ctx.t('wallet-deposit-choose', { min: formatRupiah(walletLimits.minDeposit) }), {
        reply_markup: createDepositAmountsKeyboard(),
      });
      return;
    }
    await askDeposit(ctx, amount);
    return;
  }
  const page = Math.max(0, Math.min(10_000, Number(tap.id) || 0));
  // From /saldo's button: a new message; the statement's own page buttons (`pg`): in place.
  await replyStatement(ctx, page, former, tap.action === 'pg');
});

// The upline's ✅ Terima / ❌ Tolak under a deposit request; a second or late tap is told what happened.
walletFeature.callbackQuery(depositDecisionData.filter(), async (ctx: CallbackQueryContext<BotContext>) => {
  const tap = await readTap(
    ctx,
    depositDecisionData,
    (f) =>
      f.action === 'ok'
        ? { id: f.request, decision: 'accept' as const }
        : f.action === 'no'
          ? { id: f.request, decision: 'reject' as const }
          : undefined,
    { privateOnly: true },
  );
  if (!tap) return;
  const decided = await ctx.deps.services.wallets.decide(ctx.from.id, tap.id, tap.decision);
  if (decided.kind === 'unknown' || decided.kind === 'gone' || decided.kind === 'held-elsewhere') {
    // A request that cannot be accepted keeps its buttons: ❌ Tolak still closes it.
    await ctx.answerCallbackQuery({ text: ctx.t(`wallet-decision-${decided.kind}`), show_alert: decided.kind !== 'unknown' });
    return;
  }
  const fresh = decided.kind !== 'expired' && decided.now;
  const note = fresh ? `wallet-decision-${decided.kind}` : `wallet-decision-already-${decided.kind}`;
  await ctx.answerCallbackQuery({ text: ctx.t(note) });
  const downline = await ctx.deps.db.users.get(decided.request.downlineId);
  await quietly(
    ctx.editMessageText(renderDecidedDeposit(ctx.t, decided, downline ? displayName(downline) : String(decided.request.downlineId))),
  );
});
