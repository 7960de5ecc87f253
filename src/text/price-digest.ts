/**
 * The price-change digest (/pantau): one message listing what changed in a reseller's price
 * list, grouped by kind (⛔ unavailable, ✅ active again, 🔺 up, 🔻 down, 🆕 new, 🗑 removed), cut
 * to fit one Telegram message ("… and N more"). The owner's copy shows old → new cost and, when
 * they have a sell price, their new margin or ⚠️ the loss; the group's copy shows neither cost nor
 * margin (a group may include customers and staff).
 */
import { formatRupiah } from './format.ts';
import type { ReceiptTranslate } from './receipt.ts';
import { productStatusWord } from '../text/product-status.ts';

/** One change as the digest shows it (the price watch service's `SubscriberChange`). */
export interface DigestChange {
  kind: 'unavailable' | 'active' | 'up' | 'down' | 'new' | 'removed';
  code: string;
  name: string;
  /** Price now (for `removed`: the last price seen). */
  price: number;
  /** Price before, for `up` and `down`. */
  oldPrice?: number;
  /** Status now, verbatim (for `removed`: the last status seen). */
  status: string;
  /** The owner's sell price now, when they set one. */
  sell?: number;
}

const kinds: ReadonlyArray<DigestChange['kind']> = ['unavailable', 'active', 'up', 'down', 'new', 'removed'];

/** Telegram's limit for one message is 4096 characters; the rest is room for the "… and N more" line. */
export const digestMaxLength = 3900;

/** True when the owner would sell below cost after a price rise. */
export function isLoss(change: DigestChange): boolean {
  return change.kind === 'up' && change.sell !== undefined && change.sell < change.price;
}

/** The digest text (HTML). `forGroup` leaves out every cost, price and margin. */
export function formatPriceDigest(
  t: ReceiptTranslate,
  changes: readonly DigestChange[],
  options: { forGroup: boolean; maxLength?: number },
): string {
  const maxLength = options.maxLength ?? digestMaxLength;
  const head = [t('watch-digest-title')];
  const losses = options.forGroup ? 0 : changes.filter(isLoss).length;
  if (losses > 0) head.push(t('watch-digest-losses', { count: losses }));
  const footer = options.forGroup ? [] : ['', t('watch-digest-footer')];

  const lines = [...head];
  let length = lines.join('\n').length + footer.join('\n').length + 1;
  let shown = 0;
  fill: for (const kind of kinds) {
    const group = changes.filter((c) => c.kind === kind);
    if (group.length === 0) continue;
    const title = t(`watch-kind-${kind}`, { count: group.length });
    if (length + title.length + 2 > maxLength) break;
    lines.push('', title);
    length += title.length + 2;
    for (const change of group) {
      const line = lineOf(t, change, options.forGroup);
      if (length + line.length + 1 > maxLength) break fill;
      lines.push(line);
      length += line.length + 1;
      shown += 1;
    }
  }
  if (shown < changes.length) lines.push(t('watch-digest-more', { count: changes.length - shown }));
  return [...lines, ...footer].join('\n');
}

function lineOf(t: ReceiptTranslate, change: DigestChange, forGroup: boolean): string {
  const product = { code: change.code, name: change.name };
  if (change.kind === 'unavailable') return t('watch-line-status', { ...product, status: productStatusWord(t, change.status) });
  if (forGroup || change.kind === 'active' || change.kind === 'removed') return t('watch-line', product);
  if (change.kind === 'new') return t('watch-line-new', { ...product, price: formatRupiah(change.price) });
  const line = t('watch-line-price', { ...product, old: formatRupiah(change.oldPrice ?? change.price), new: formatRupiah(change.price) });
  if (change.sell === undefined) return line;
  if (isLoss(change))
    return `${line} ${t('watch-loss', { sell: formatRupiah(change.sell), loss: formatRupiah(change.price - change.sell) })}`;
  return `${line} ${t('watch-margin', { margin: formatRupiah(change.sell - change.price) })}`;
}
