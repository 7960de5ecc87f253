import { describe, expect, it } from 'vitest';
import type { Update } from 'grammy/types';
import { limitActiveUpdates } from '../../src/server/active-updates.ts';

/**
 * A bot whose updates finish when the test says so, with park timers the test fires by hand.
 */
function setup(maxActive: number) {
  const running = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const started: number[] = [];
  const timers = new Map<number, () => void>();
  const core = (update: Update): Promise<void> => {
    started.push(update.update_id);
    return new Promise<void>((resolve, reject) => running.set(update.update_id, { resolve, reject }));
  };
  const limit = limitActiveUpdates({
    maxActive,
    parkAfterMs: 250,
    setTimer: (task) => {
      const id = timers.size + started.length * 1000;
      timers.set(id, task);
      return { clear: () => timers.delete(id) };
    },
  });
  const bot = { handleUpdate: limit(core) };
  const send = (...ids: number[]) => ids.map((id) => bot.handleUpdate({ update_id: id }));
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  /** Finishes update `id` (or fails it), then lets the promises settle. */
  const finish = async (id: number, error?: Error) => {
    const handle = running.get(id);
    if (!handle) throw new Error(`update ${id} is not running`);
    if (error) handle.reject(error);
    else handle.resolve();
    await settled();
  };
  /** 250 ms pass for everything running now: their park timers fire. */
  const parkAll = () => {
    for (const task of [...timers.values()]) task();
    timers.clear();
  };
  return { started, send, finish, parkAll, settled, timers };
}

describe('updates handled at once', () => {
  it('runs at most maxActive at once; the next starts, in order, when one finishes', async () => {
    const { started, send, finish } = setup(2);
    const handled = send(1, 2, 3, 4, 5);
    expect(started).toEqual([1, 2]);
    await finish(2);
    expect(started).toEqual([1, 2, 3]);
    await finish(1);
    expect(started).toEqual([1, 2, 3, 4]);
    await finish(3);
    await finish(4);
    await finish(5);
    await expect(Promise.all(handled)).resolves.toHaveLength(5);
  });

  it('does not let updates stuck on a slow call hold the others up: after 250 ms they stop counting', async () => {
    const { started, send, finish, parkAll } = setup(2);
    const [slowA, slowB, quick] = send(1, 2, 3);
    expect(started).toEqual([1, 2]);
    // 1 and 2 wait on a provider that hangs: 250 ms later they are parked and 3 starts.
    parkAll();
    expect(started).toEqual([1, 2, 3]);
    await finish(3);
    await expect(quick).resolves.toBeUndefined();
    // A parked update finishing later frees nothing twice: still two at most among the new ones.
    await finish(1);
    void send(4, 5, 6);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    await finish(4);
    expect(started).toEqual([1, 2, 3, 4, 5, 6]);
    await finish(2);
    await expect(Promise.all([slowA, slowB])).resolves.toHaveLength(2);
  });

  it('passes a failed handling on and frees its slot', async () => {
    const { started, send, finish } = setup(1);
    const [failing, next] = send(1, 2);
    const failed = expect(failing).rejects.toThrow('update 1 failed');
    await finish(1, new Error('update 1 failed'));
    await failed;
    expect(started).toEqual([1, 2]);
    await finish(2);
    await expect(next).resolves.toBeUndefined();
  });
});
