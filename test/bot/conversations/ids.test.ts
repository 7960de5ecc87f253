/**
 * Each flow is entered with its own arguments: `enterFlow` types them by conversation id, so a
 * feature that passes another flow's arguments, or forgets the ones a flow needs, does not compile
 * (`npx tsc --noEmit` checks the `@ts-expect-error` lines below; vitest only runs the file).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { conversationIds, enterFlow } from '../../../src/bot/conversations/ids.ts';
import type { BotContext } from '../../../src/bot/context.ts';

/** Records what `enterFlow` asks the conversations plugin for. */
function recordingContext() {
  const calls: unknown[][] = [];
  const ctx = {
    conversation: {
      exitAll: () => Promise.resolve(void calls.push(['exitAll'])),
      enter: (...args: unknown[]) => Promise.resolve(void calls.push(['enter', ...args])),
    },
  } as unknown as BotContext;
  return { ctx, calls };
}

describe('enterFlow', () => {
  it('leaves the open flow, then enters the one asked for with its arguments', async () => {
    const { ctx, calls } = recordingContext();
    await enterFlow(ctx, conversationIds.sell, { mode: 'brand' });
    await enterFlow(ctx, conversationIds.pin);
    expect(calls).toEqual([['exitAll'], ['enter', 'sell', { mode: 'brand' }], ['exitAll'], ['enter', 'pin']]);
  });

  it("takes each flow's own arguments only", () => {
    const { ctx } = recordingContext();
    const typeChecksOnly = () => {
      void enterFlow(ctx, conversationIds.buy, { lines: [{ code: 'TSEL10' }] });
      void enterFlow(ctx, conversationIds.connect);
      void enterFlow(ctx, conversationIds.connect, { service: 'reseller' });
      void enterFlow(ctx, conversationIds.order, { game: 'mobile-legends' });
      // @ts-expect-error the sell flow needs to know which rule it sets
      void enterFlow(ctx, conversationIds.sell);
      // @ts-expect-error the PIN flow takes no arguments
      void enterFlow(ctx, conversationIds.pin, { mode: 'default' });
      // @ts-expect-error a buy is entered with its lines, not a game
      void enterFlow(ctx, conversationIds.buy, { game: 'mobile-legends' });
      // @ts-expect-error no such flow
      void enterFlow(ctx, 'checkout');
    };
    expectTypeOf(typeChecksOnly).toBeFunction();
  });
});
