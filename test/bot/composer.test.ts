import { describe, expect, it } from 'vitest';
import { Api, Composer, Context, type NextFunction } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import { FastComposer } from '../../src/bot/composer.ts';

const me: UserFromGetMe = {
  id: 777,
  is_bot: true,
  first_name: 'Kios',
  username: 'kiosbot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: true,
  can_connect_to_business: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
};
const user = { id: 42, is_bot: false, first_name: 'Budi' };
const privateChat = { id: 42, type: 'private' as const, first_name: 'Budi' };
const group = { id: -100, type: 'supergroup' as const, title: 'Toko' };

const message = (text: string, chat: typeof privateChat | typeof group = privateChat): Update => ({
  update_id: 1,
  message: {
    message_id: 1,
    date: 0,
    chat,
    from: user,
    text,
    ...(text.startsWith('/') ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }] } : {}),
  },
});
const tap = (data: string): Update => ({
  update_id: 2,
  callback_query: {
    id: 'q',
    from: user,
    chat_instance: 'c',
    data,
    message: { message_id: 5, date: 0, chat: privateChat, from: { ...user, id: me.id, is_bot: true }, text: 'menu' },
  },
});
const sticker: Update = {
  update_id: 3,
  message: {
    message_id: 3,
    date: 0,
    chat: privateChat,
    from: user,
    sticker: { file_id: 'f', file_unique_id: 'u', type: 'regular', width: 1, height: 1, is_animated: false, is_video: false },
  },
};
const inline: Update = { update_id: 4, inline_query: { id: 'i', from: user, query: 'tsel 10', offset: '' } };

/** The updates every tree below is run with. */
const updates: Array<[string, Update]> = [
  ['/saldo', message('/saldo')],
  ['/harga tsel', message('/harga tsel')],
  ['/saldo in a group', message('/saldo', group)],
  ['/SALDO@kiosbot', message('/SALDO@kiosbot')],
  ['plain text', message('pulsa xl 10')],
  ['quick-buy text', message('TSEL10.081234567890')],
  ['text in a group', message('halo', group)],
  ['button refresh', tap('balance:refresh')],
  ['button other', tap('prices:b:0:0')],
  ['sticker', sticker],
  ['inline query', inline],
];

type Factory = () => Composer<Context>;
const grammy: Factory = () => new Composer<Context>();
const fast: Factory = () => new FastComposer<Context>();

/**
 * A tree of middleware like the bot's features, built the same way on either kind of composer;
 * every middleware writes to `trace` what it saw. `later` extends branches after they were
 * installed (as the features do: `const privateChat = feature.chatType('private')`, handlers after).
 */
function buildTree(make: Factory, trace: string[]): Composer<Context> {
  const root = make();
  root.use(async (ctx, next) => {
    trace.push('log:before');
    await next();
    trace.push('log:after');
  });

  const balance = make();
  const privateOnly = balance.chatType('private');
  balance.callbackQuery(/^balance:/, (ctx) => {
    trace.push(`balance:tap:${ctx.match[0]}`);
  });
  const prices = make();
  prices.drop((ctx) => ctx.chat?.type === 'private').command('saldo', (ctx) => void trace.push(`group-only:${ctx.match}`));
  prices.command(['harga', 'prices'], async (ctx, next) => {
    trace.push(`prices:${ctx.match}`);
    if (ctx.match === '') await next();
  });
  prices.on('message:text').hears(/^([A-Z0-9]+)\.(\d+)$/, (ctx) => void trace.push(`quick-buy:${ctx.match[1]}`));
  // An async predicate, and a filter with several middleware of which one stops.
  prices.filter(
    async (ctx) => {
      await Promise.resolve();
      return ctx.message?.text?.includes(' ') ?? false;
    },
    (_ctx, next) => {
      trace.push('spaced:1');
      return next();
    },
    () => void trace.push('spaced:2 (stops)'),
    () => void trace.push('spaced:3 (never)'),
  );
  prices.on(['message:sticker', 'inline_query'], async (ctx, next) => {
    trace.push(`media-or-inline:${ctx.update.update_id}`);
    await next();
  });
  // grammY's other routing helpers, over this composer's filter and use.
  prices.branch(
    (ctx) => ctx.chat?.type !== 'supergroup',
    (_ctx, next) => {
      trace.push('branch:yes');
      return next();
    },
    () => void trace.push('branch:no'),
  );
  prices.errorBoundary(
    (error) => void trace.push(`boundary:${(error.error as Error).message}`),
    (ctx, next) => {
      if (ctx.inlineQuery) throw new Error('inline failed');
      return next();
    },
  );
  prices.lazy((ctx) => (ctx.callbackQuery ? [(_c: Context, next: NextFunction) => (trace.push('lazy:tap'), next())] : []));

  root.use(balance, prices);
  root.use((ctx) => void trace.push(`fallback:${ctx.update.update_id}`));

  // Installed after the branches were mounted: seen all the same.
  privateOnly.command('saldo', (ctx) => void trace.push(`balance:shown:${ctx.match}`));
  privateOnly.on('message:text', async (ctx, next) => {
    trace.push('private-text');
    await next();
  });
  return root;
}

async function run(make: Factory, update: Update): Promise<string[]> {
  const trace: string[] = [];
  const tree = buildTree(make, trace);
  await tree.middleware()(new Context(update, new Api('dummy'), me), () => {
    trace.push('next');
    return Promise.resolve();
  });
  return trace;
}

describe('FastComposer', () => {
  it.each(updates)('routes %s exactly as grammY’s Composer does', async (_name, update) => {
    const expected = await run(grammy, update);
    expect(expected.length).toBeGreaterThan(2);
    expect(await run(fast, update)).toEqual(expected);
  });

  it('routes the fixture updates to different handlers (the trees above are not trivial)', async () => {
    const traces = await Promise.all(updates.map(([, update]) => run(fast, update)));
    expect(new Set(traces.map((trace) => trace.join('|'))).size).toBe(updates.length);
  });

  it('fails like grammY when a middleware calls `next` twice, and passes errors through', async () => {
    for (const make of [grammy, fast]) {
      const twice = make();
      twice.use(async (_ctx, next) => {
        await next();
        await next();
      });
      twice.use(() => Promise.resolve());
      await expect(twice.middleware()(new Context(sticker, new Api('dummy'), me), () => Promise.resolve())).rejects.toThrow(
        '`next` already called before!',
      );

      const throwing = make();
      throwing.on('message', () => {
        throw new Error('sync boom');
      });
      // grammY does not check the `next` of a composer's last middleware: neither does FastComposer.
      const last = make();
      last.use(async (_ctx, next) => {
        await next();
        await next();
      });
      const outer: string[] = [];
      await last.middleware()(new Context(sticker, new Api('dummy'), me), () => Promise.resolve(void outer.push('next')));
      expect(outer).toEqual(['next', 'next']);

      await expect(throwing.middleware()(new Context(sticker, new Api('dummy'), me), () => Promise.resolve())).rejects.toThrow('sync boom');
    }
  });

  it('a filter whose predicate throws fails the update like grammY, after the filters before it said no', async () => {
    for (const make of [grammy, fast]) {
      const seen: string[] = [];
      const composer = make();
      composer.command('saldo', () => void seen.push('saldo'));
      composer.callbackQuery('x', () => void seen.push('x'));
      composer.filter(
        () => {
          throw new Error('predicate boom');
        },
        () => void seen.push('never'),
      );
      composer.use(() => void seen.push('after'));
      await expect(composer.middleware()(new Context(sticker, new Api('dummy'), me), () => Promise.resolve())).rejects.toThrow(
        'predicate boom',
      );
      expect(seen).toEqual([]);
    }
  });

  it('calls a predicate on its own, as grammY does (no `this`)', async () => {
    for (const make of [grammy, fast]) {
      const seen: unknown[] = [];
      const composer = make();
      composer.filter(function (this: unknown) {
        seen.push(this);
        return false;
      });
      await composer.middleware()(new Context(sticker, new Api('dummy'), me), () => Promise.resolve());
      expect(seen).toEqual([undefined]);
    }
  });

  it('passes a long run of filters that say no, then runs the first that says yes, with a guarded next', async () => {
    for (const make of [grammy, fast]) {
      const seen: string[] = [];
      const composer = make();
      for (let i = 0; i < 50; i++) composer.command(`c${i}`, () => void seen.push(`c${i}`));
      composer.on('message:sticker', async (_ctx, next) => {
        seen.push('sticker');
        await next();
        await expect(next()).rejects.toThrow('`next` already called before!');
      });
      for (let i = 0; i < 50; i++) composer.callbackQuery(`b${i}`, () => void seen.push(`b${i}`));
      composer.use(() => void seen.push('end'));
      await composer.middleware()(new Context(sticker, new Api('dummy'), me), () => Promise.resolve(void seen.push('outer')));
      expect(seen).toEqual(['sticker', 'end']);
    }
  });

  it('an empty composer passes every update on', async () => {
    const passed: string[] = [];
    await new FastComposer<Context>().middleware()(new Context(sticker, new Api('dummy'), me), () => {
      passed.push('next');
      return Promise.resolve();
    });
    expect(passed).toEqual(['next']);
  });
});
