import { describe, expect, it } from 'vitest';
import type { BotContext } from '../../../src/bot/context.ts';
import { countCrowd, crowdThreshold, showChatAction } from '../../../src/bot/middlewares/crowd.ts';

/** A context that records its chat actions (all these tests need of one). */
const fakeContext = () => {
  const actions: string[] = [];
  const ctx = {
    replyWithChatAction: (action: string) => {
      actions.push(action);
      return Promise.resolve(true);
    },
  } as unknown as BotContext;
  return { ctx, actions };
};

describe('the crowd count', () => {
  it(`marks an update crowded when more than ${crowdThreshold} are in hand at its start, and forgets them as they end`, async () => {
    const crowd = countCrowd();
    const releases: Array<() => void> = [];
    const hold = () => new Promise<void>((resolve) => releases.push(resolve));
    const contexts = Array.from({ length: crowdThreshold + 1 }, () => fakeContext().ctx);
    const handling = contexts.map((ctx) => crowd(ctx, hold));
    expect(contexts.map((ctx) => ctx.crowded)).toEqual([...Array<boolean>(crowdThreshold).fill(false), true]);

    for (const release of releases) release();
    await Promise.all(handling);
    const after = fakeContext().ctx;
    await crowd(after, () => Promise.resolve());
    expect(after.crowded).toBe(false);
  });

  it('forgets an update whose handling failed', async () => {
    const crowd = countCrowd(1);
    await expect(crowd(fakeContext().ctx, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const next = fakeContext().ctx;
    const releaseLater = crowd(next, async () => {
      const third = fakeContext().ctx;
      await crowd(third, () => Promise.resolve());
      // Two in hand (this one and `next`): more than 1.
      expect(third.crowded).toBe(true);
    });
    await releaseLater;
    expect(next.crowded).toBe(false);
  });

  it('shows a chat action only outside a crowd', async () => {
    const calm = fakeContext();
    await showChatAction(calm.ctx, 'typing');
    expect(calm.actions).toEqual(['typing']);

    const crowded = fakeContext();
    crowded.ctx.crowded = true;
    await showChatAction(crowded.ctx, 'typing');
    expect(crowded.actions).toEqual([]);
  });

  it('never fails for a chat action Telegram refused', async () => {
    const { ctx } = fakeContext();
    ctx.replyWithChatAction = () => Promise.reject(new Error('Forbidden: bot was blocked by the user'));
    await expect(showChatAction(ctx, 'upload_photo')).resolves.toBeUndefined();
  });
});
