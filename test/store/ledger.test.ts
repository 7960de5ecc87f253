/**
 * Where the lowdb store keeps wallet entries: written into the hot file with the change they go
 * with, then copied into ledger.json. A crash (or a failed ledger.json write) between the two
 * loses nothing and copies nothing twice; a failed hot write stores no entry anywhere; a
 * ledger.json that goes missing is noticed at open.
 */
import path from 'node:path';
import { existsSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, type AtomicWriter } from '../../src/store/durable-file.ts';
import { ledgerFileName } from '../../src/store/ledger.ts';
import type { NewLedgerEntry } from '../../src/store/records/ledger.ts';
import { hotFileName, openStore } from '../../src/store/store.ts';
import { createClock, createTempDirs, purchase, readJson, testVault } from './helpers.ts';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());
const clock = createClock('2026-03-01T08:00:00.000Z');

const deposit = (key: string, amount: number): NewLedgerEntry => ({ wallet: 7001, upline: 42, kind: 'deposit', amount, key });
const hold = (refId: string, amount: number): NewLedgerEntry => ({
  wallet: 7001,
  upline: 42,
  kind: 'hold',
  amount: -amount,
  key: `hold:${refId}`,
  refId,
});

/** A writer that fails the writes of the files `failing` names (a full disk under them). */
function failingFor(failing: Set<string>): AtomicWriter {
  return (file, content, options) =>
    failing.has(path.basename(file))
      ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }))
      : writeFileAtomic(file, content, options);
}

const open = (dataDir: string, writeFile?: AtomicWriter) =>
  openStore({ dataDir, vault: testVault(), now: clock.now, ...(writeFile ? { writeFile } : {}) });

const walletFile = (dataDir: string) =>
  (readJson(path.join(dataDir, ledgerFileName)) as { wallets: Record<string, Array<{ seq: number; key: string }>> }).wallets['7001'] ?? [];
const carried = (dataDir: string) => Object.keys((readJson(path.join(dataDir, hotFileName)) as { ledger?: object }).ledger ?? {});

describe('lowdb wallet entries', () => {
  it('are copied from the hot file into ledger.json, and leave the hot file', async () => {
    const dataDir = dirs.make();
    const store = await open(dataDir);
    await store.ledger.append([deposit('d1', 20_000)]);
    await store.transactions.create(purchase('R1', { userId: 7001 }), { ledger: [hold('R1', 11_000)] });
    await store.close();
    expect(walletFile(dataDir).map((entry) => entry.key)).toEqual(['d1', 'hold:R1']);
    expect(carried(dataDir)).toEqual([]);
  });

  it('a ledger.json that cannot be written leaves them in the hot file: read from there, copied once at the next open', async () => {
    const dataDir = dirs.make();
    const failing = new Set([ledgerFileName]);
    const store = await open(dataDir, failingFor(failing));
    await store.ledger.append([deposit('d1', 20_000)]);
    await store.transactions.create(purchase('R1', { userId: 7001 }), { ledger: [hold('R1', 11_000)] });
    // Durable (in the hot file) although ledger.json failed: the balance counts them, the rules too.
    expect(store.ledger.balance(7001)).toBe(9_000);
    await expect(store.ledger.append([hold('R2', 10_000)])).rejects.toMatchObject({ reason: 'insufficient', shortBy: 1_000 });
    await store.close().catch(() => undefined);
    expect(existsSync(path.join(dataDir, ledgerFileName))).toBe(false);
    expect(carried(dataDir).sort()).toEqual(['7001:1', '7001:2']);

    const reopened = await open(dataDir);
    await reopened.flush();
    expect(walletFile(dataDir).map((entry) => [entry.seq, entry.key])).toEqual([
      [1, 'd1'],
      [2, 'hold:R1'],
    ]);
    expect(reopened.ledger.balance(7001)).toBe(9_000);
    // Appending after the copy continues the wallet; a replayed key still credits nothing.
    await reopened.ledger.append([deposit('d1', 20_000), deposit('d2', 1_000)]);
    expect(reopened.ledger.entries(7001).map((entry) => [entry.seq, entry.balance])).toEqual([
      [1, 20_000],
      [2, 9_000],
      [3, 10_000],
    ]);
    await reopened.close();
    expect(carried(dataDir)).toEqual([]);
    expect(walletFile(dataDir)).toHaveLength(3);
  });

  it('a failed hot write stores neither the purchase nor its hold', async () => {
    const dataDir = dirs.make();
    const failing = new Set<string>();
    const store = await open(dataDir, failingFor(failing));
    await store.ledger.append([deposit('d1', 20_000)]);
    failing.add(hotFileName);
    await expect(store.transactions.create(purchase('R1', { userId: 7001 }), { ledger: [hold('R1', 11_000)] })).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    expect(store.ledger.balance(7001)).toBe(20_000);
    expect(store.transactions.get('R1')).toBeUndefined();
    failing.clear();
    await store.close();
    const reopened = await open(dataDir);
    expect(reopened.ledger.entries(7001).map((entry) => entry.key)).toEqual(['d1']);
    await reopened.close();
  });

  it('a ledger.json gone from a data directory that had one is refused at open, not read as empty wallets', async () => {
    const dataDir = dirs.make();
    const store = await open(dataDir);
    await store.ledger.append([deposit('d1', 20_000)]);
    // The record of the new file goes with a later hot write; another change makes one.
    await store.transactions.create(purchase('R1'));
    await store.close();
    rmSync(path.join(dataDir, ledgerFileName));
    rmSync(path.join(dataDir, `${ledgerFileName}.bak`), { force: true });
    await expect(open(dataDir)).rejects.toMatchObject({ code: 'missing', message: expect.stringContaining(ledgerFileName) as unknown });
  });
});
