import { describe, expect, it } from 'vitest';
import { createAccountProblemReporter } from '../../src/notify/account-problems.ts';
import { createLogger } from '../../src/logger.ts';
import type { AccountProblem } from '../../src/providers/factory.ts';
import type { NewOutboxItem } from '../../src/store/records/outbox.ts';

function setup() {
  let clock = Date.parse('2026-11-23T03:00:00Z');
  const queued: NewOutboxItem[] = [];
  const report = createAccountProblemReporter({
    operatorItems: (problem) => [
      { chatId: -100, kind: 'operator', payload: { type: 'send', text: `${problem.service}:${problem.userId}:${problem.kind}` } },
    ],
    enqueue: (items) => {
      queued.push(...items);
      return Promise.resolve();
    },
    logger: createLogger({ write: () => undefined }),
    now: () => new Date(clock),
    windowMs: 60 * 60_000,
  });
  const texts = () => queued.map((item) => (item.payload as { text: string }).text);
  return { report, texts, advance: (ms: number) => void (clock += ms) };
}

const ipBlocked: AccountProblem = { userId: 7, service: 'reseller', kind: 'ip_blocked' };

describe('account problem reporter', () => {
  it('reports a refused account once per window, and again after it', async () => {
    const { report, texts, advance } = setup();
    report(ipBlocked);
    report(ipBlocked);
    advance(59 * 60_000);
    report(ipBlocked);
    await Promise.resolve();
    expect(texts()).toEqual(['reseller:7:ip_blocked']);
    advance(2 * 60_000);
    report(ipBlocked);
    await Promise.resolve();
    expect(texts()).toEqual(['reseller:7:ip_blocked', 'reseller:7:ip_blocked']);
  });

  it('tells apart users, services and kinds', async () => {
    const { report, texts } = setup();
    report(ipBlocked);
    report({ ...ipBlocked, userId: 8 });
    report({ ...ipBlocked, service: 'marketplace' });
    report({ ...ipBlocked, kind: 'credentials' });
    await Promise.resolve();
    expect(texts()).toHaveLength(4);
  });
});
