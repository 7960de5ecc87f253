import { describe, expect, it } from 'vitest';
import { dayRange, parseDay, periodRange, typedRange } from '../../src/services/export-periods.ts';

const range = (r: { from: string; to: string; start: Date; end: Date }) => [r.from, r.to, r.start.toISOString(), r.end.toISOString()];

describe('export periods (WIB calendar days, weeks from Monday)', () => {
  // Monday 23 Nov 2026, 05:30 WIB (Sunday 22:30 UTC).
  const mondayEarly = new Date('2026-11-22T22:30:00Z');

  it('today and yesterday are WIB days, not UTC days', () => {
    expect(range(periodRange('today', mondayEarly))).toEqual([
      '2026-11-23',
      '2026-11-23',
      '2026-11-22T17:00:00.000Z',
      '2026-11-23T17:00:00.000Z',
    ]);
    expect(range(periodRange('yesterday', mondayEarly))).toEqual([
      '2026-11-22',
      '2026-11-22',
      '2026-11-21T17:00:00.000Z',
      '2026-11-22T17:00:00.000Z',
    ]);
    // 16:59:59.999 UTC is still the same WIB day; 17:00 UTC is the next one.
    expect(periodRange('today', new Date('2026-11-23T16:59:59.999Z')).from).toBe('2026-11-23');
    expect(periodRange('today', new Date('2026-11-23T17:00:00.000Z')).from).toBe('2026-11-24');
  });

  it('this week runs from Monday to today, also on a Sunday', () => {
    expect(range(periodRange('week', mondayEarly))).toEqual([
      '2026-11-23',
      '2026-11-23',
      '2026-11-22T17:00:00.000Z',
      '2026-11-23T17:00:00.000Z',
    ]);
    // Sunday 29 Nov 2026 23:00 WIB.
    const sunday = new Date('2026-11-29T16:00:00Z');
    expect(range(periodRange('week', sunday))).toEqual([
      '2026-11-23',
      '2026-11-29',
      '2026-11-22T17:00:00.000Z',
      '2026-11-29T17:00:00.000Z',
    ]);
    // Wednesday 2 Dec 2026: the week started in November.
    expect(periodRange('week', new Date('2026-12-02T03:00:00Z')).from).toBe('2026-11-30');
  });

  it('this month and last month, at month and year edges', () => {
    // 1 Dec 2026 01:00 WIB is 30 Nov 18:00 UTC: already December in WIB.
    const firstOfDecember = new Date('2026-11-30T18:00:00Z');
    expect(range(periodRange('month', firstOfDecember))).toEqual([
      '2026-12-01',
      '2026-12-01',
      '2026-11-30T17:00:00.000Z',
      '2026-12-01T17:00:00.000Z',
    ]);
    expect(range(periodRange('lastmonth', firstOfDecember))).toEqual([
      '2026-11-01',
      '2026-11-30',
      '2026-10-31T17:00:00.000Z',
      '2026-11-30T17:00:00.000Z',
    ]);
    const january = new Date('2027-01-15T05:00:00Z');
    expect(range(periodRange('lastmonth', january))).toEqual([
      '2026-12-01',
      '2026-12-31',
      '2026-11-30T17:00:00.000Z',
      '2026-12-31T17:00:00.000Z',
    ]);
    // Last month of March in a leap year is all of February.
    expect(periodRange('lastmonth', new Date('2028-03-31T10:00:00Z')).to).toBe('2028-02-29');
  });

  it('reads a day typed as YYYY-MM-DD or DD/MM/YYYY, and nothing that is not a real day', () => {
    expect(parseDay('2026-11-01')).toBe('2026-11-01');
    expect(parseDay('01/11/2026')).toBe('2026-11-01');
    expect(parseDay('1/11/2026')).toBe('2026-11-01');
    expect(parseDay('29/02/2028')).toBe('2028-02-29');
    for (const bad of ['2026-02-30', '31/04/2026', '2026-13-01', '11/2026', 'kemarin', '2026-1-1x', '00/01/2026'])
      expect(parseDay(bad)).toBeUndefined();
  });

  it('a typed range covers both days whole; a bad day or a reversed range is refused', () => {
    expect(range(dayRange('2026-11-01', '2026-11-15'))).toEqual([
      '2026-11-01',
      '2026-11-15',
      '2026-10-31T17:00:00.000Z',
      '2026-11-15T17:00:00.000Z',
    ]);
    expect(typedRange('01/11/2026', '15/11/2026')).toMatchObject({ from: '2026-11-01', to: '2026-11-15' });
    expect(typedRange('2026-11-01', '2026-11-01')).toMatchObject({ from: '2026-11-01', to: '2026-11-01' });
    expect(typedRange('2026-11-31', '2026-12-01')).toEqual({ error: 'format' });
    expect(typedRange('2026-11-15', '2026-11-01')).toEqual({ error: 'order' });
  });
});
