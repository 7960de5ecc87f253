/**
 * Reading long texts (issue 27): what a 4,095-character message (Telegram's longest) and one twice
 * as long cost the readers every plain text, quick-buy line and /jual override line goes through,
 * now and as they were before, side by side in the same run. The former readers are copied here
 * as they stood: the search-text cut that dropped one character per turn, and the line patterns
 * run over whole lines of any length.
 *
 * Figures (one JSON line each): for each reader and input shape, the median milliseconds of one
 * call at 4,095 and 8,190 characters, before and now, and the growth when the text doubles
 * (about 2 for linear work, 4 or more for quadratic).
 *
 * Run: npx tsx bench/text-input.ts [--runs 7]. Not part of `npm run bench`: the former readers take
 * 15 s of CPU at the default runs (a minute on a busy machine); it needs nothing but this process.
 */
import { normaliseQuery } from '../src/bot/features/prices.ts';
import { parseQuickBuy } from '../src/services/targets.ts';
import { parseOverride } from '../src/services/pricing.ts';
import { hostFigure } from './host.ts';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;

/** The search-text cut as it was: one character off per turn, the rest measured again. */
function normaliseQueryBefore(text: string): string {
  let query = text.toLowerCase().replace(/:/g, ' ').replace(/\s+/g, ' ').trim();
  while (Buffer.byteLength(query, 'utf8') > 40) query = Array.from(query).slice(0, -1).join('');
  return query.trim();
}

const codePattern = '(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_-]{0,29}';
const dottedLine = new RegExp(`^(${codePattern})\\s*[.:]\\s*(.+)$`);
const spacedNumberLine = new RegExp(`^((?=[A-Za-z0-9_-]*\\d)${codePattern})\\s+(\\+?[\\d\\s().-]+)$`);

/** The quick-buy line patterns as they were run: over each whole line, whatever its length. */
function quickBuyBefore(text: string): number {
  let matched = 0;
  for (const line of text.split(/\r?\n/).map((l) => l.trim())) {
    if (dottedLine.exec(line) ?? spacedNumberLine.exec(line)) matched++;
  }
  return matched;
}

const valuePattern = String.raw`(?:[+=-]\s*)?(?:rp\.?\s*)?\d[\d.,]*\s*(?:%|rb|ribu|k)?`;
const overridePattern = new RegExp(String.raw`^(?<name>.+?)\s+(?<value>${valuePattern}|hapus|remove|delete|-)$`, 'i');

/** The /jual override-line pattern as it was run: over each whole line. */
function overrideBefore(text: string): boolean {
  return overridePattern.test(text.trim());
}

/** Input shapes of `n` characters that the former readers spent the most on. */
const shapes: Record<string, (n: number) => string> = {
  words: (n) => 'pulsa xl 10 '.repeat(Math.ceil(n / 12)).slice(0, n),
  letters: (n) => 'a'.repeat(n),
  'code + spaces': (n) => `TSEL10 ${' '.repeat(n - 8)}x`,
  'code + spaces + CR': (n) => `TSEL10.${' '.repeat(n - 12)}\ry\rz`,
  'name + spaces': (n) => `a${' '.repeat(n - 2)}x`,
};

const readers: Array<{ reader: string; shapes: string[]; before: (text: string) => unknown; now: (text: string) => unknown }> = [
  { reader: 'normaliseQuery', shapes: ['words', 'letters'], before: normaliseQueryBefore, now: normaliseQuery },
  { reader: 'quick-buy lines', shapes: ['code + spaces', 'code + spaces + CR'], before: quickBuyBefore, now: parseQuickBuy },
  {
    reader: '/jual override line',
    shapes: ['name + spaces', 'code + spaces + CR'],
    before: overrideBefore,
    now: (text) => parseOverride(text, { price: true }),
  },
];

/** Median milliseconds of one call of `read` on `text`. */
function medianMs(read: (text: string) => unknown, text: string): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    read(text);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return Math.round((times[Math.floor(times.length / 2)] ?? 0) * 1000) / 1000;
}

console.log(JSON.stringify(hostFigure()));
for (const { reader, shapes: names, before, now } of readers) {
  for (const shape of names) {
    const make = shapes[shape]!;
    const [short, long] = [make(4095), make(8190)];
    const figures = {
      beforeMs4095: medianMs(before, short),
      beforeMs8190: medianMs(before, long),
      nowMs4095: medianMs(now, short),
      nowMs8190: medianMs(now, long),
    };
    const growth = (a: number, b: number) => (a > 0 ? Math.round((b / a) * 10) / 10 : null);
    console.log(
      JSON.stringify({
        bench: 'text-input',
        reader,
        shape,
        ...figures,
        beforeGrowth: growth(figures.beforeMs4095, figures.beforeMs8190),
        nowGrowth: growth(figures.nowMs4095, figures.nowMs8190),
      }),
    );
  }
}
