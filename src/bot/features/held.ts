import type { BotContext } from '../context.ts';
import { FastComposer } from '../composer.ts';
import { formatRupiah } from '../../text/format.ts';

/**
 * An upline's decision on a downline's purchase left held (on with DOWNLINES=true): when the
 * provider never gave a final answer (Unresolved), the price stays held in the downline's wallet
 * until the upline, who can ask the provider, says what happened. `/selesaikan <ref ID> sukses`
 * (the provider charged: the price is spent) or `gagal` (it did not: the price goes back). Once per
 * purchase, whoever decides; the purchase service writes it and tells the downline.
 */
export const heldFeature = new FastComposer<BotContext>();

const decisions: Record<string, 'final' | 'refund'> = { sukses: 'final', success: 'final', gagal: 'refund', failed: 'refund' };

heldFeature.chatType('private').command(['resolve', 'selesaikan'], async (ctx) => {
  const [refId = '', word = ''] = ctx.match.trim().split(/\s+/);
  const decision = decisions[word.toLowerCase()];
  if (refId === '' || !decision) {
    await ctx.reply(ctx.t('held-usage'));
    return;
  }
  const answer = await ctx.deps.services.purchases.resolveHeld(ctx.from.id, refId, decision);
  switch (answer.kind) {
    case 'unknown':
      await ctx.reply(ctx.t('held-unknown', { refId }));
      return;
    case 'open':
      await ctx.reply(ctx.t('held-open', { refId }));
      return;
    case 'closed':
      await ctx.reply(ctx.t(`held-closed-${answer.as}`, { refId }));
      return;
    case 'resolved': {
      const downline = await ctx.deps.db.users.get(answer.tx.userId);
      const variables = {
        refId,
        name: downline?.firstName ?? String(answer.tx.userId),
        price: formatRupiah(answer.tx.price),
        balance: formatRupiah(answer.balance),
      };
      await ctx.reply(ctx.t(decision === 'refund' ? 'held-refunded' : 'held-spent', variables));
    }
  }
});
