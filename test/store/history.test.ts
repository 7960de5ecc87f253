import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { monthOf, openHistory } from '../../src/store/history.ts';
import { createTempDirs, modeOf, readJson } from './helpers.ts';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

describe('history', () => {
  it('files transactions by the UTC month of createdAt', () => {
    expect(monthOf('2025-01-31T23:59:59.999Z')).toBe('2025-01');
    // 1 February 05:00 in Jakarta is still January in UTC.
    expect(monthOf('2025-02-01T05:00:00+07:00')).toBe('2025-01');
  });

  it('lists existing month files newest first without reading them, and creates new ones 0600', async () => {
    const dir = path.join(dirs.make(), 'history');
    const first = await openHistory({ dir });
    expect(first.months()).toEqual([]);
    expect(modeOf(dir)).toBe(0o700);
    writeFileSync(path.join(dir, '2024-12.json'), 'broken, but never read');
    writeFileSync(path.join(dir, 'notes.txt'), '');
    const history = await openHistory({ dir });
    expect(history.months()).toEqual(['2024-12']);
    expect(await history.read('2025-01')).toBeUndefined();
    const file = await history.file('2025-01');
    await file.update((data) => {
      data.transactions = {};
    });
    expect(history.months()).toEqual(['2025-01', '2024-12']);
    expect(readJson(path.join(dir, '2025-01.json'))).toEqual({ version: 1, month: '2025-01', transactions: {} });
    expect(modeOf(path.join(dir, '2025-01.json'))).toBe(0o600);
    expect(await history.file('2025-01')).toBe(file);
    await expect(history.file('../evil')).rejects.toThrow(/Not a history month/);
    await history.close();
  });
});
