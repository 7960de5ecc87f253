/**
 * A grammY `Composer` that routes exactly as grammY's does, with less work per update (the bot's
 * features are `FastComposer`s; everything else about them is grammY's). grammY installs every
 * filtered handler (`on`, `command`, `chatType` … all go through `filter`) as `lazy` middleware that
 * builds a new Composer per update reaching it, and nests two async functions per `use`: with ~30
 * features an update built dozens of Composers and awaited ~80 promises before its handler
 * (bench/README.md). Here a filter's branch is built once, and middleware runs from an array.
 * Kept as in grammY (test/bot/composer.test.ts runs both side by side): which middleware runs, in
 * which order, with which `next`; a branch extended later is seen by later updates; calling `next`
 * twice fails with grammY's error; errors and sync or async middleware behave alike.
 */
import { Composer, type Context, type Middleware, type MiddlewareFn, type NextFunction } from 'grammy';

type MaybePromise<T> = T | Promise<T>;

/** grammY's `flatten`: a middleware object is asked for its function on each call (it may have grown since). */
function flatten<C extends Context>(middleware: Middleware<C>): MiddlewareFn<C> {
  return typeof middleware === 'function' ? middleware : (ctx, next) => middleware.middleware()(ctx, next);
}

/** A `filter` step: its branch runs when the predicate holds, else the update goes on. */
interface FilterStep<C extends Context> {
  predicate: (ctx: C) => MaybePromise<boolean>;
  branch: MiddlewareFn<C>;
}

export class FastComposer<C extends Context> extends Composer<C> {
  /** This composer's middleware, in the order they were installed. */
  private readonly stack: Array<MiddlewareFn<C> | FilterStep<C>>;
  /** What `middleware()` hands out: one function for the composer's lifetime. */
  private readonly handle: MiddlewareFn<C> = (ctx, next) => this.run(ctx, next, 0);

  constructor(...middleware: Array<Middleware<C>>) {
    super();
    this.stack = middleware.map(flatten);
  }

  override middleware(): MiddlewareFn<C> {
    return this.handle;
  }

  /**
   * Runs the middleware at `index`, whose `next` runs the one after it (past the last one, `next`).
   * No async wrapper per step; a synchronous throw becomes a rejection as in grammY. Filters that
   * say no at once are passed in a loop (most steps an update meets).
   */
  private run(ctx: C, next: NextFunction, index: number): Promise<void> {
    let middleware: MiddlewareFn<C>;
    for (;;) {
      const step = this.stack[index];
      if (step === undefined) return next();
      if (typeof step === 'function') {
        middleware = step;
        break;
      }
      const { predicate } = step;
      let matched: MaybePromise<boolean>;
      try {
        // Called on its own (no `this`), as grammY calls it.
        matched = predicate(ctx);
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown, as grammY's async middleware would.
        return Promise.reject(error);
      }
      if (matched instanceof Promise) {
        const { branch } = step;
        const pending = matched;
        middleware = (c, n) => pending.then((yes) => (yes ? branch(c, n) : n()));
        break;
      }
      if (matched) {
        middleware = step.branch;
        break;
      }
      index += 1;
    }
    // As in grammY, only a `next` that leads to another middleware of this composer is guarded.
    let nextCalled = false;
    const after: NextFunction =
      index === this.stack.length - 1
        ? next
        : () => {
            if (nextCalled) return Promise.reject(new Error('`next` already called before!'));
            nextCalled = true;
            return this.run(ctx, next, index + 1);
          };
    try {
      return Promise.resolve(middleware(ctx, after)) as Promise<void>;
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown, as grammY's async middleware would.
      return Promise.reject(error);
    }
  }

  override use(...middleware: Array<Middleware<C>>): Composer<C> {
    const composer = new FastComposer<C>(...middleware);
    this.stack.push(flatten(composer));
    return composer;
  }

  override filter<D extends C>(predicate: (ctx: C) => ctx is D, ...middleware: Array<Middleware<D>>): Composer<D>;
  override filter(predicate: (ctx: C) => MaybePromise<boolean>, ...middleware: Array<Middleware<C>>): Composer<C>;
  override filter(predicate: (ctx: C) => MaybePromise<boolean>, ...middleware: Array<Middleware<C>>): Composer<C> {
    const composer = new FastComposer<C>(...middleware);
    this.stack.push({ predicate, branch: composer.middleware() });
    return composer;
  }
}
