import { describe, expect, it } from 'vitest';
import {
  maxQuickBuyLineLength,
  maxQuickBuyLines,
  normaliseCode,
  normaliseTarget,
  parseBuyCommand,
  parseQuickBuy,
  targetKindOf,
} from '../../src/services/targets.ts';
import { normalisePhone } from '../../src/domain/operators.ts';

import { longestPatternInput } from '../helpers/pattern-work.ts';

const product = (code: string, product_name: string) => ({ code, product_name });

describe('normalisePhone', () => {
  it.each([
    ['081234567890', '081234567890'],
    ['+6281234567890', '081234567890'],
    ['6281234567890', '081234567890'],
    ['+62 812-3456-7890', '081234567890'],
    ['0812 3456 7890', '081234567890'],
    ['(0812) 3456.7890', '081234567890'],
    ['  0881234567  ', '0881234567'],
    ['0812345678901', '0812345678901'],
  ])('%s → %s', (raw, expected) => {
    expect(normalisePhone(raw)).toBe(expected);
  });

  it.each([
    ['08123456', 'too short'],
    ['08123456789012', 'too long (14 digits)'],
    ['0212345678', 'a landline, not 08'],
    ['+6581234567', 'another country'],
    ['0812abc4567', 'letters'],
    ['', 'empty'],
  ])('refuses %s (%s)', (raw) => {
    expect(normalisePhone(raw)).toBeUndefined();
  });
});

describe('targetKindOf', () => {
  it.each([
    [product('TSEL10', 'Telkomsel 10.000'), 'phone'],
    [product('TSELD1GB', 'Telkomsel Data 1GB 7 Hari'), 'phone'],
    [product('XL25', 'XL 25.000'), 'phone'],
    [product('DANA10', 'DANA 10.000'), 'phone'],
    [product('GOPAY20', 'GoPay 20.000'), 'phone'],
    [product('PLN20', 'PLN Token 20.000'), 'verbatim'],
    [product('ML86', 'Mobile Legends 86 Diamonds'), 'verbatim'],
    [product('FF70', 'Free Fire 70 Diamonds'), 'verbatim'],
    [product('PUBG60', 'PUBG Mobile 60 UC'), 'verbatim'],
    [product('GIWELKIN', 'Genshin Impact Blessing of the Welkin Moon'), 'verbatim'],
    [product('ABC1', 'Something Else'), 'auto'],
    // A card or customer number is not a phone number: without an operator or wallet named, as typed.
    [product('ETOLL50', 'Mandiri e-Toll 50.000'), 'auto'],
    [product('EMONEY50', 'Mandiri E-Money 50.000'), 'auto'],
    [product('BRIZZI50', 'Saldo Brizzi 50.000'), 'auto'],
    [product('INDIHOME', 'Indihome Internet'), 'auto'],
    // A phone data package for games is still bought for a phone number.
    [product('TSELGAME5', 'Telkomsel Kuota Games 5GB'), 'phone'],
  ] as const)('%o → %s', (p, kind) => {
    expect(targetKindOf(p)).toBe(kind);
  });
});

describe('normaliseTarget', () => {
  it('normalises phone numbers for phone products and refuses implausible ones', () => {
    expect(normaliseTarget('+62 812 3456 7890', 'phone')).toEqual({ ok: true, target: '081234567890' });
    expect(normaliseTarget('62812345678', 'phone')).toEqual({ ok: true, target: '0812345678' });
    expect(normaliseTarget('12345', 'phone')).toEqual({ ok: false, problem: 'phone' });
    expect(normaliseTarget('   ', 'phone')).toEqual({ ok: false, problem: 'empty' });
  });

  it('takes game ids and meter numbers as typed, only trimmed', () => {
    expect(normaliseTarget('  12345678 (1234) ', 'verbatim')).toEqual({ ok: true, target: '12345678 (1234)' });
    expect(normaliseTarget('6281234567890', 'verbatim')).toEqual({ ok: true, target: '6281234567890' });
    expect(normaliseTarget('532110987654', 'verbatim')).toEqual({ ok: true, target: '532110987654' });
  });

  it('refuses empty, overlong and control-character targets', () => {
    expect(normaliseTarget('', 'verbatim')).toEqual({ ok: false, problem: 'empty' });
    expect(normaliseTarget('9'.repeat(41), 'verbatim')).toEqual({ ok: false, problem: 'too-long' });
    expect(normaliseTarget('123\u0000456', 'verbatim')).toEqual({ ok: false, problem: 'characters' });
  });

  it('for unclassified products, normalises only what is unmistakably a phone number', () => {
    expect(normaliseTarget('+6281234567890', 'auto')).toEqual({ ok: true, target: '081234567890' });
    expect(normaliseTarget('0812-3456-7890', 'auto')).toEqual({ ok: true, target: '081234567890' });
    expect(normaliseTarget('+65 1234', 'auto')).toEqual({ ok: false, problem: 'phone' });
    // Not plausible as a phone number: taken as typed (it may be a meter number).
    expect(normaliseTarget('0812', 'auto')).toEqual({ ok: true, target: '0812' });
    expect(normaliseTarget('532110987654', 'auto')).toEqual({ ok: true, target: '532110987654' });
  });
});

describe('parseQuickBuy', () => {
  it('reads one CODE.TARGET line, upper-casing the code', () => {
    expect(parseQuickBuy('tsel10.081234567890')).toEqual({
      lines: [{ line: 1, code: 'TSEL10', target: '081234567890' }],
      problems: [],
      count: 1,
    });
  });

  it('reads several lines, skips blank ones and reports lines not in the format', () => {
    const parsed = parseQuickBuy('TSEL10.081234567890\n\nXL10 . 081398765432\nhalo\nML86.12345678 (1234)');
    expect(parsed?.lines).toEqual([
      { line: 1, code: 'TSEL10', target: '081234567890' },
      { line: 2, code: 'XL10', target: '081398765432' },
      { line: 4, code: 'ML86', target: '12345678 (1234)' },
    ]);
    expect(parsed?.problems).toEqual([{ line: 3, text: 'halo' }]);
    expect(parsed?.count).toBe(4);
  });

  it('leaves ordinary chatter and commands alone', () => {
    expect(parseQuickBuy('halo bot, apa kabar?')).toBeUndefined();
    expect(parseQuickBuy('ok. makasih')).toBeUndefined();
    expect(parseQuickBuy('jam 10.30 ya')).toBeUndefined();
    expect(parseQuickBuy('/beli TSEL10.081234567890')).toBeUndefined();
    // A code has a letter: this is a game id with its zone.
    expect(parseQuickBuy('12345678.1234')).toBeUndefined();
  });

  it('counts every line so the caller can refuse more than the limit', () => {
    const text = Array.from({ length: maxQuickBuyLines + 1 }, (_, i) => `TSEL10.0812345678${String(i).padStart(2, '0')}`).join('\n');
    expect(parseQuickBuy(text)?.count).toBe(maxQuickBuyLines + 1);
  });
});

describe('quick-buy lines of any length are read in bounded work', () => {
  // Telegram delivers texts of up to 4,095 characters; these shapes made the line patterns
  // backtrack over the whole line (tens of milliseconds each, quadratic in its length).
  const long = {
    spaces: `TSEL10 ${' '.repeat(4086)}x`,
    'spaces before a carriage return': `TSEL10.${' '.repeat(4083)}\ry\rz`,
    digits: `TSEL10.${'1'.repeat(4088)}`,
  };

  it.each(Object.entries(long))('a 4,095-character line (%s) is a problem, matched over a short prefix at most', (_shape, text) => {
    let quick: ReturnType<typeof parseQuickBuy>;
    let command: ReturnType<typeof parseBuyCommand> | undefined;
    const longest = longestPatternInput(() => {
      quick = parseQuickBuy(text);
      command = parseBuyCommand(text);
    });
    expect(longest).toBeLessThanOrEqual(maxQuickBuyLineLength);
    expect(quick!).toBeUndefined();
    expect(command?.lines).toEqual([]);
    expect(command?.problems).toEqual([{ line: 1, text: `${text.slice(0, 29)}…` }]);
  });

  it('a line of the longest useful length is still read', () => {
    const line = `${'A'.repeat(30)} . ${'1'.repeat(maxQuickBuyLineLength - 33)}`;
    expect(line).toHaveLength(maxQuickBuyLineLength);
    expect(parseQuickBuy(line)?.lines).toEqual([{ line: 1, code: 'A'.repeat(30), target: '1'.repeat(maxQuickBuyLineLength - 33) }]);
  });
});

describe('parseBuyCommand', () => {
  it('accepts nothing, a code, CODE TARGET and CODE.TARGET', () => {
    expect(parseBuyCommand('')).toEqual({ lines: [], problems: [], count: 0 });
    expect(parseBuyCommand(' tsel10 ')).toEqual({ lines: [{ line: 1, code: 'TSEL10' }], problems: [], count: 1 });
    expect(parseBuyCommand('TSEL10 0812 3456 7890').lines).toEqual([{ line: 1, code: 'TSEL10', target: '0812 3456 7890', spaced: true }]);
    expect(parseBuyCommand('TSEL10.081234567890').lines).toEqual([{ line: 1, code: 'TSEL10', target: '081234567890' }]);
  });

  it('reads several lines; a bare code among them is a problem', () => {
    const parsed = parseBuyCommand('TSEL10.081234567890\nXL10\nML86 12345678 1234');
    expect(parsed.lines).toEqual([
      { line: 1, code: 'TSEL10', target: '081234567890' },
      { line: 3, code: 'ML86', target: '12345678 1234', spaced: true },
    ]);
    expect(parsed.problems).toEqual([{ line: 2, text: 'XL10' }]);
  });
});

describe('normaliseCode', () => {
  it('trims and upper-cases', () => {
    expect(normaliseCode('  ml86 ')).toBe('ML86');
  });
});

describe('invisible and direction-changing characters (Unicode Cf)', () => {
  // What the user confirms must be exactly what is sent: a zero-width space or a right-to-left
  // override would make the summary show one target while the provider gets another.
  const zwsp = '\u200B';
  const rlo = '\u202E';
  const isolate = '\u2066';

  it('are dropped from quick-buy codes and targets before anything else reads them', () => {
    expect(parseQuickBuy(`PLN20.1234${zwsp}5678901`)?.lines).toEqual([{ line: 1, code: 'PLN20', target: '12345678901' }]);
    expect(parseQuickBuy(`TS${zwsp}EL10.${rlo}081234567890`)?.lines).toEqual([{ line: 1, code: 'TSEL10', target: '081234567890' }]);
    expect(parseBuyCommand(`TSEL10 ${isolate}0812345678${'\u2069'}90`).lines).toEqual([
      { line: 1, code: 'TSEL10', target: '081234567890', spaced: true },
    ]);
  });

  it('are dropped from a target typed in a step of its own, and from codes', () => {
    expect(normaliseTarget(`1234${zwsp}5678901`, 'verbatim')).toEqual({ ok: true, target: '12345678901' });
    expect(normaliseTarget(`${rlo}12345678 (1234)`, 'verbatim')).toEqual({ ok: true, target: '12345678 (1234)' });
    expect(normaliseTarget(`0812${'\uFEFF'}34567890`, 'phone')).toEqual({ ok: true, target: '081234567890' });
    expect(normaliseTarget(`${zwsp}${rlo}`, 'verbatim')).toEqual({ ok: false, problem: 'empty' });
    expect(normaliseCode(`ml${'\u00AD'}86`)).toBe('ML86');
  });
});

describe('quick-buy separators', () => {
  it('accepts CODE:TARGET like CODE.TARGET', () => {
    expect(parseQuickBuy('TSEL10:081234567890')?.lines).toEqual([{ line: 1, code: 'TSEL10', target: '081234567890' }]);
    expect(parseBuyCommand('TSEL10:081234567890').lines).toEqual([{ line: 1, code: 'TSEL10', target: '081234567890' }]);
  });

  it('accepts CODE TARGET in a plain message when the target is a number', () => {
    expect(parseQuickBuy('TSEL10 081234567890')?.lines).toEqual([{ line: 1, code: 'TSEL10', target: '081234567890', spaced: true }]);
    expect(parseQuickBuy('tsel10 0812-3456-7890\nXL10 081398765432')?.lines).toEqual([
      { line: 1, code: 'TSEL10', target: '0812-3456-7890', spaced: true },
      { line: 2, code: 'XL10', target: '081398765432', spaced: true },
    ]);
  });

  it('still leaves a price search and chatter with numbers alone', () => {
    expect(parseQuickBuy('telkomsel 10')).toBeUndefined();
    expect(parseQuickBuy('token pln 50000')).toBeUndefined();
    expect(parseQuickBuy('telkomsel 081234567890')).toBeUndefined();
    expect(parseQuickBuy('jam 10:30 ya')).toBeUndefined();
  });
});
