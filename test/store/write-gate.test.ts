import { describe, expect, it } from 'vitest';
import { createWriteGate } from '../../src/store/write-gate.ts';

/** A writer whose writes finish only when the test says so; it records what it wrote, in order. */
function controlledWriter() {
  const written: string[] = [];
  const open = new Map<string, () => void>();
  const writer = (file: string) =>
    new Promise<void>((resolve) => {
      open.set(file, () => {
        written.push(file);
        resolve();
      });
    });
  return { writer, written, finish: (file: string) => open.get(file)?.(), started: () => [...open.keys()] };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('write gate', () => {
  it('a held task starts after the write in flight, and writes asked for meanwhile start after it', async () => {
    const gate = createWriteGate();
    const disk = controlledWriter();
    const write = gate.wrap(disk.writer);
    const first = write('a', '', { backup: false });
    const seen: string[] = [];
    const held = gate.hold(async () => {
      seen.push(`task saw ${disk.written.join(',') || 'nothing'}`);
      await tick();
      seen.push(`task ends, started meanwhile: ${disk.started().join(',')}`);
    });
    await tick();
    expect(seen).toEqual([]);
    const second = write('b', '', { backup: false });
    disk.finish('a');
    await first;
    await held;
    expect(seen).toEqual(['task saw a', 'task ends, started meanwhile: a']);
    await tick();
    expect(disk.started()).toEqual(['a', 'b']);
    disk.finish('b');
    await second;
    expect(disk.written).toEqual(['a', 'b']);
  });

  it('two holds run one after the other, and a failing task releases the gate', async () => {
    const gate = createWriteGate();
    const order: string[] = [];
    const one = gate.hold(async () => {
      order.push('one starts');
      await tick();
      order.push('one ends');
      throw new Error('backup failed');
    });
    const two = gate.hold(() => {
      order.push('two');
      return Promise.resolve();
    });
    await expect(one).rejects.toThrow('backup failed');
    await two;
    expect(order).toEqual(['one starts', 'one ends', 'two']);
    const disk = controlledWriter();
    const write = gate.wrap(disk.writer);
    const after = write('c', '', { backup: false });
    await tick();
    disk.finish('c');
    await after;
    expect(disk.written).toEqual(['c']);
  });
});
