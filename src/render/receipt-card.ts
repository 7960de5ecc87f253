/**
 * The customer receipt as a PNG card, drawn locally with @napi-rs/canvas (prebuilt Skia) in the
 * DejaVu Sans fonts, emoji in Twemoji (./fonts.ts): no network, no system fonts. It draws a
 * `CustomerReceiptModel` (src/text/customer-receipt.ts) as it is, so the card shows exactly what
 * the text message shows: 600 px wide, white, the height its lines need.
 */
import { fontStack, loadCanvas } from './fonts.ts';
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { CustomerReceiptModel, CustomerReceiptRow } from '../text/customer-receipt.ts';

/** The card's width in pixels. */
export const receiptCardWidth = 600;

const padding = 36;
const contentWidth = receiptCardWidth - padding * 2;
const colours = { ink: '#1f2328', muted: '#6e7781', rule: '#c8ccd1', accent: '#0b7a3e', band: '#0b7a3e', tokenBox: '#f2f4f6' };

const font = (size: number, bold = false) => `${bold ? 'bold ' : ''}${size}px ${fontStack}`;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

type Align = 'left' | 'right' | 'center';

/** One thing to draw at a vertical position (its text baseline, or a rule's line). */
type Op =
  | { type: 'text'; y: number; text: string; font: string; colour: string; align: Align }
  | { type: 'rule'; y: number }
  | { type: 'box'; y: number; height: number };

/** Splits `text` into lines no wider than `width` in `fontSpec`: at spaces, and inside words that alone are too wide. */
function wrap(ctx: SKRSContext2D, text: string, fontSpec: string, width: number): string[] {
  ctx.font = fontSpec;
  const fits = (value: string) => ctx.measureText(value).width <= width;
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let current = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = current === '' ? word : `${current} ${word}`;
      if (fits(candidate)) {
        current = candidate;
        continue;
      }
      if (current !== '') lines.push(current);
      current = '';
      // A word wider than the line (a long ref id) is cut where it reaches the edge, between
      // graphemes so that an emoji made of several code points (👨‍👩‍👧, 🇮🇩) stays whole.
      for (const { segment: char } of graphemes.segment(word)) {
        if (current !== '' && !fits(current + char)) {
          lines.push(current);
          current = '';
        }
        current += char;
      }
    }
    lines.push(current);
  }
  return lines;
}

/** Lays the card out top to bottom: the operations to draw and the height they take. */
function layout(ctx: SKRSContext2D, model: CustomerReceiptModel): { ops: Op[]; height: number } {
  const ops: Op[] = [];
  let y = padding + 8;
  const centred = (text: string, size: number, colour: string, bold = false, gap = 6) => {
    for (const line of wrap(ctx, text, font(size, bold), contentWidth)) {
      y += size;
      ops.push({ type: 'text', y, text: line, font: font(size, bold), colour, align: 'center' });
      y += gap;
    }
  };
  const rule = () => {
    y += 12;
    ops.push({ type: 'rule', y });
    y += 14;
  };
  const row = (item: CustomerReceiptRow, size = 17, labelSize = 15) => {
    const valueFont = font(size, item.strong === true);
    ctx.font = font(labelSize);
    const labelWidth = ctx.measureText(item.label).width;
    ctx.font = valueFont;
    const oneLine = labelWidth + 20 + ctx.measureText(item.value).width <= contentWidth;
    y += Math.max(size, labelSize) + 4;
    ops.push({ type: 'text', y, text: item.label, font: font(labelSize), colour: colours.muted, align: 'left' });
    if (oneLine) {
      ops.push({ type: 'text', y, text: item.value, font: valueFont, colour: colours.ink, align: 'right' });
    } else {
      for (const line of wrap(ctx, item.value, valueFont, contentWidth)) {
        y += size + 6;
        ops.push({ type: 'text', y, text: line, font: valueFont, colour: colours.ink, align: 'right' });
      }
    }
    y += 8;
  };
  const token = (item: CustomerReceiptRow) => {
    y += 19;
    ops.push({ type: 'text', y, text: item.label, font: font(15), colour: colours.muted, align: 'left' });
    y += 10;
    const lines = wrap(ctx, item.value, font(26, true), contentWidth - 24);
    const height = lines.length * 34 + 18;
    ops.push({ type: 'box', y, height });
    let lineY = y + 9;
    for (const line of lines) {
      lineY += 28;
      ops.push({ type: 'text', y: lineY, text: line, font: font(26, true), colour: colours.ink, align: 'center' });
      lineY += 6;
    }
    y += height + 8;
  };

  if (model.shopName !== undefined) {
    centred(model.shopName, 30, colours.ink, true, 8);
    if (model.address !== undefined) centred(model.address, 16, colours.muted);
    rule();
    centred(model.title, 17, colours.muted, true);
  } else {
    centred(model.title, 26, colours.ink, true);
  }
  rule();
  for (const item of model.rows) {
    if (item.strong === true && item.code === true) token(item);
    else row(item);
  }
  rule();
  row(model.total, 28, 20);
  y += 6;
  centred(`✓ ${model.status}`, 18, colours.accent, true);
  if (model.footer !== undefined) {
    rule();
    centred(model.footer, 16, colours.muted);
  }
  return { ops, height: Math.ceil(y + padding) };
}

/** Renders `model` as a PNG receipt card (600 px wide, white background) and returns its bytes. */
export async function renderReceiptCard(model: CustomerReceiptModel): Promise<Buffer> {
  const { createCanvas } = await loadCanvas();
  const { ops, height } = layout(createCanvas(1, 1).getContext('2d'), model);
  const canvas = createCanvas(receiptCardWidth, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, receiptCardWidth, height);
  ctx.fillStyle = colours.band;
  ctx.fillRect(0, 0, receiptCardWidth, 8);
  for (const op of ops) {
    if (op.type === 'rule') {
      ctx.strokeStyle = colours.rule;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([6, 5]);
      ctx.beginPath();
      ctx.moveTo(padding, op.y);
      ctx.lineTo(receiptCardWidth - padding, op.y);
      ctx.stroke();
    } else if (op.type === 'box') {
      ctx.fillStyle = colours.tokenBox;
      ctx.fillRect(padding, op.y, contentWidth, op.height);
    } else {
      ctx.font = op.font;
      ctx.fillStyle = op.colour;
      ctx.textAlign = op.align;
      const x = op.align === 'left' ? padding : op.align === 'right' ? receiptCardWidth - padding : receiptCardWidth / 2;
      ctx.fillText(op.text, x, op.y);
    }
  }
  return canvas.toBuffer('image/png');
}
