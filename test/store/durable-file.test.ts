import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DurableFile, sealJson, unsealJson, type WriteEvent } from '../../src/store/durable-file.ts';
import { StoreCorruptError, StoreError } from '../../src/store/errors.ts';
import { createTempDirs, modeOf, readJson } from './helpers.ts';

/** A tiny file format: a list of numbers and a version that must be 1. */
const listSchema = z.object({ version: z.literal(1), items: z.array(z.number()) });
type List = z.infer<typeof listSchema>;

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

async function openList(file: string, writes: WriteEvent[] = []): Promise<DurableFile<List>> {
  return DurableFile.open<List>({
    path: file,
    decode: (raw) => ({ data: listSchema.parse(raw) }),
    defaultData: () => ({ version: 1, items: [] }),
    onWrite: (event) => writes.push(event),
  });
}

const onDisk = (file: string) => (readJson(file) as List).items;
const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Opens a file, expecting a StoreCorruptError, and returns it. */
async function corruptError(file: string): Promise<StoreCorruptError> {
  const error = await openList(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof StoreCorruptError) return error;
  throw new Error(`expected StoreCorruptError, got ${String(error)}`);
}

describe('DurableFile', () => {
  it('starts from the default data when the file is missing, and creates directories 0700 and the file 0600', async () => {
    const dir = path.join(dirs.make(), 'nested', 'data');
    const file = path.join(dir, 'list.json');
    const list = await openList(file);
    expect(list.data.items).toEqual([]);
    expect(list.existed).toBe(false);
    expect(existsSync(file)).toBe(false);
    await list.update((data) => data.items.push(1));
    expect(onDisk(file)).toEqual([1]);
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('coalesces 100 concurrent updates into far fewer writes, and each caller resolves with its change on disk', async () => {
    const file = path.join(dirs.make(), 'list.json');
    const writes: WriteEvent[] = [];
    const list = await openList(file, writes);
    const checks: Array<Promise<void>> = [];
    for (let i = 0; i < 100; i++) {
      checks.push(
        list
          .update((data) => {
            data.items.push(i);
            return i;
          })
          .then((result) => {
            expect(result).toBe(i);
            // Read from disk the moment this caller is resolved.
            expect(onDisk(file)).toContain(i);
          }),
      );
    }
    await Promise.all(checks);
    expect(onDisk(file)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(writes.length).toBeGreaterThanOrEqual(1);
    expect(writes.length).toBeLessThanOrEqual(2);
  });

  it('writes changes made during a write in the next single write, never two writes at once', async () => {
    const file = path.join(dirs.make(), 'list.json');
    const writes: WriteEvent[] = [];
    const list = await openList(file, writes);
    const checks: Array<Promise<void>> = [];
    for (let i = 0; i < 100; i++) {
      checks.push(list.update((data) => data.items.push(i)).then(() => expect(onDisk(file)).toContain(i)));
      if (i % 5 === 4) await nextTick();
    }
    await Promise.all(checks);
    expect(onDisk(file)).toHaveLength(100);
    expect(writes.length).toBeGreaterThan(1);
    expect(writes.length).toBeLessThan(50);
    const sorted = [...writes].sort((a, b) => a.startedAt - b.startedAt);
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1]!;
      expect(sorted[i]!.startedAt).toBeGreaterThanOrEqual(previous.startedAt + previous.durationMs);
    }
  });

  it('survives close and reopen', async () => {
    const file = path.join(dirs.make(), 'list.json');
    const list = await openList(file);
    void list.update((data) => data.items.push(7));
    await list.close();
    await expect(list.update((data) => data.items.push(8))).rejects.toThrow(StoreError);
    const again = await openList(file);
    expect(again.existed).toBe(true);
    expect(again.data.items).toEqual([7]);
  });

  it('writes nothing when the mutator throws or is async', async () => {
    const file = path.join(dirs.make(), 'list.json');
    const writes: WriteEvent[] = [];
    const list = await openList(file, writes);
    await expect(
      list.update(() => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(writes).toHaveLength(0);
    await expect(list.update(() => Promise.resolve(undefined))).rejects.toThrow(/synchronous/);
  });

  it('keeps the previous version as .bak and leaves no temp files', async () => {
    const dir = dirs.make();
    const file = path.join(dir, 'list.json');
    const list = await openList(file);
    await list.update((data) => data.items.push(1));
    await list.update((data) => data.items.push(2));
    expect(onDisk(file)).toEqual([1, 2]);
    expect(onDisk(`${file}.bak`)).toEqual([1]);
    expect(modeOf(`${file}.bak`)).toBe(0o600);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to start empty when the file is missing but its backup exists, and keeps the backup', async () => {
    const dir = dirs.make();
    const file = path.join(dir, 'list.json');
    const list = await openList(file);
    await list.update((data) => data.items.push(1));
    await list.update((data) => data.items.push(2));
    rmSync(file);
    const error = await corruptError(file);
    expect(error.message).toContain(`cp "${file}.bak" "${file}"`);
    expect(onDisk(`${file}.bak`)).toEqual([1]);
    rmSync(`${file}.bak`);
    expect((await openList(file)).data.items).toEqual([]);
  });

  it('removes temp files a crash left behind, and tightens a file that is open to others', async () => {
    const dir = dirs.make();
    const file = path.join(dir, 'list.json');
    writeFileSync(file, JSON.stringify({ version: 1, items: [3] }), { mode: 0o644 });
    writeFileSync(path.join(dir, '.list.json.999.abc.tmp'), '{"half');
    writeFileSync(path.join(dir, '.list.json.bak.abc.tmp'), '{"half');
    const list = await openList(file);
    expect(list.data.items).toEqual([3]);
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['list.json']);
  });

  it('rejects the waiting callers when a write fails and drops their changes; the next write works', async () => {
    const dir = path.join(dirs.make(), 'data');
    const file = path.join(dir, 'list.json');
    const list = await openList(file);
    await list.update((data) => data.items.push(1));
    rmSync(dir, { recursive: true });
    await expect(list.update((data) => data.items.push(2))).rejects.toThrow();
    // A change that did not reach the disk is not kept in memory (nor written later behind the caller's back).
    expect(list.data.items).toEqual([1]);
    mkdirSync(dir);
    await list.update((data) => data.items.push(3));
    expect(onDisk(file)).toEqual([1, 3]);
  });

  describe('an unreadable file', () => {
    it.each([
      ['not JSON', '{"version": 1, "items": [1, 2'],
      ['empty', ''],
      ['the wrong shape', JSON.stringify({ version: 1, items: ['one'] })],
    ])('(%s) throws StoreCorruptError naming the file and leaves its bytes alone', async (_what, content) => {
      const file = path.join(dirs.make(), 'list.json');
      writeFileSync(file, content, { mode: 0o600 });
      const before = statSync(file).mtimeMs;
      const error = await corruptError(file);
      expect(error.file).toBe(file);
      expect(error.message).toContain(file);
      expect(error.message).toContain('mv ');
      expect(readFileSync(file, 'utf8')).toBe(content);
      expect(statSync(file).mtimeMs).toBe(before);
      expect(readdirSync(path.dirname(file))).toEqual(['list.json']);
    });

    it('does not quote the file in the error, and suggests the .bak when there is one', async () => {
      const file = path.join(dirs.make(), 'list.json');
      const list = await openList(file);
      await list.update((data) => data.items.push(1));
      await list.update((data) => data.items.push(2));
      writeFileSync(file, '{"version":1,"items":[1,2],"note":"private-words" oops}');
      const error = await corruptError(file);
      expect(error.message).not.toContain('private-words');
      expect(error.message).toContain(`cp "${file}.bak" "${file}"`);
      expect(error.reason).toMatch(/not valid JSON/);
    });

    it('lists schema problems by path', async () => {
      const file = path.join(dirs.make(), 'list.json');
      writeFileSync(file, JSON.stringify({ version: 1, items: [1, 'two'] }));
      expect((await corruptError(file)).reason).toContain('items.1');
    });
  });

  describe('with checksums', () => {
    /** A checked list whose decode calls (the schema check) are counted. */
    const openChecked = (file: string, calls: { decode: number }) =>
      DurableFile.open<List>({
        path: file,
        decode: (raw) => {
          calls.decode++;
          return { data: listSchema.parse(raw) };
        },
        decodeChecked: (raw) => ((raw as List).version === 1 ? { data: raw as List } : undefined),
        defaultData: () => ({ version: 1, items: [] }),
      });

    it('starts each write with the checksum of its JSON; a file whose checksum holds opens without the schema check', async () => {
      const file = path.join(dirs.make(), 'list.json');
      const calls = { decode: 0 };
      const list = await openChecked(file, calls);
      await list.update((data) => data.items.push(1, 2));
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(/^\{"sum":"[0-9a-f]{8}","version":1,"items":\[1,2\]\}$/);
      expect(unsealJson(text)).toBe('{"version":1,"items":[1,2]}');
      const again = await openChecked(file, calls);
      expect(again.data).toEqual({ version: 1, items: [1, 2] });
      expect(calls.decode).toBe(0);
    });

    it('a file without a checksum, or whose checksum does not match, is checked by its schema and refused as before when damaged', async () => {
      const file = path.join(dirs.make(), 'list.json');
      const calls = { decode: 0 };
      writeFileSync(file, JSON.stringify({ version: 1, items: [3] }));
      expect((await openChecked(file, calls)).data.items).toEqual([3]);
      expect(calls.decode).toBe(1);
      // Changed after it was written: the checksum no longer matches, so the schema decides.
      const sealed = sealJson(JSON.stringify({ version: 1, items: [4] }));
      writeFileSync(file, sealed.replace('[4]', '[5]'));
      expect((await openChecked(file, calls)).data.items).toEqual([5]);
      writeFileSync(file, sealed.replace('[4]', '["four"]'));
      const error = await DurableFile.open<List>({
        path: file,
        decode: (raw) => ({ data: listSchema.parse(raw) }),
        decodeChecked: (raw) => ({ data: raw as List }),
        defaultData: () => ({ version: 1, items: [] }),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreCorruptError);
      expect((error as StoreCorruptError).reason).toContain('items.0');
      expect(readFileSync(file, 'utf8')).toBe(sealed.replace('[4]', '["four"]'));
    });
  });
});
