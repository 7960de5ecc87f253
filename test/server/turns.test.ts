import { describe, expect, it } from 'vitest';
import type { Update } from 'grammy/types';
import { spreadUpdateStarts } from '../../src/server/turns.ts';

/**
 * A bot whose every update start costs `costMs` on a fake clock, with event-loop turns the test
 * runs by hand: `turn()` runs what was put off to the next turn.
 */
function setup(costMs: number) {
  let clock = 0;
  const later: Array<() => void> = [];
  const started: number[] = [];
  const core = (update: Update): Promise<void> => {
    started.push(update.update_id);
    clock += costMs;
    return update.update_id < 0 ? Promise.reject(new Error(`update ${update.update_id} failed`)) : Promise.resolve();
  };
  const bot = { handleUpdate: spreadUpdateStarts({ budgetMs: 4, now: () => clock, nextTurn: (task) => void later.push(task) })(core) };
  const turn = () => {
    for (const task of later.splice(0)) task();
  };
  const send = (...ids: number[]) => ids.map((id) => bot.handleUpdate({ update_id: id }));
  return { started, send, turn, idle: () => later.length === 0, tick: (ms: number) => void (clock += ms) };
}

describe('update starts spread over event-loop turns', () => {
  it('starts updates for at most 4 ms per turn, the rest in the next turns, in order', async () => {
    const { started, send, turn } = setup(1);
    const handled = send(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    expect(started).toEqual([1, 2, 3, 4]);
    turn();
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Arriving while others wait: after them.
    void Promise.all(send(11));
    turn();
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    await expect(Promise.all(handled)).resolves.toHaveLength(10);
  });

  it('starts at once when the bot is not busy, whatever the turn before cost', () => {
    const { started, send, turn, idle, tick } = setup(3);
    void Promise.all(send(1, 2));
    expect(started).toEqual([1, 2]);
    turn();
    expect(idle()).toBe(true);
    tick(1000);
    void Promise.all(send(3));
    expect(started).toEqual([1, 2, 3]);
  });

  it('lets one slow start finish its turn: the next waits for the next turn', () => {
    const { started, send, turn } = setup(25);
    void Promise.all(send(1, 2, 3));
    expect(started).toEqual([1]);
    turn();
    expect(started).toEqual([1, 2]);
    turn();
    expect(started).toEqual([1, 2, 3]);
  });

  it('passes a failed handling on to whoever waits for it, started at once or later', async () => {
    const { send, turn } = setup(3);
    const [first, second, third] = send(-1, 2, -3);
    turn();
    turn();
    await expect(first).rejects.toThrow('update -1 failed');
    await expect(second).resolves.toBeUndefined();
    await expect(third).rejects.toThrow('update -3 failed');
  });
});
