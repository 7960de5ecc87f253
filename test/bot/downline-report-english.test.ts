import { describe, expect, it } from 'vitest';
import { createI18n } from '../../src/bot/i18n.ts';
import { renderDownlineReport } from '../../src/bot/renderers/downline-report.ts';
import { renderDownlineCard } from '../../src/bot/renderers/downlines.ts';
import type { DownlinePeriod } from '../../src/services/downline-figures.ts';
import type { Db } from '../../src/store/db.ts';
import type { TranslateFunction } from '@grammyjs/i18n';

const i18n = createI18n({ defaultLocale: 'id', db: {} as Db });
const inEnglish = ((key: string, variables?: Record<string, string | number>) => i18n.t('en', key, variables)) as TranslateFunction;

const tally = { count: 3, success: 2, failed: 1, other: 0, sales: 33_000, cost: 31_500, margin: 1_500 };

describe("the upline's downline screens in English", () => {
  it('the report of all downlines names each, a removed one marked', () => {
    const period: DownlinePeriod = {
      days: { from: '2026-12-01', to: '2026-12-01' },
      rows: [
        { user: { id: 1, firstName: 'Sari', username: 'sari' }, former: false, txs: [], tally },
        { user: { id: 2, firstName: 'Ani' }, former: true, txs: [], tally: { ...tally, count: 1, success: 1, failed: 0, margin: 400 } },
      ],
      total: { ...tally, count: 4, success: 3, margin: 1_900 },
    };
    const text = renderDownlineReport(inEnglish, period, undefined);
    expect(text).toContain('Downline report (1) 2026-12-01 to 2026-12-01 (WIB)');
    expect(text).toContain('💵 Your margin: Rp 1.900');
    expect(text).toContain('1. Sari (@sari): 2× · sold Rp 33.000 · cost Rp 31.500 · margin Rp 1.500');
    expect(text).toContain('2. Ani (removed): 1×');
    expect(renderDownlineReport(inEnglish, { ...period, rows: [], total: { ...tally, count: 0 } }, { firstName: 'Sari' })).toContain(
      'No downline purchases on 2026-12-01 to 2026-12-01 (WIB).',
    );
  });

  it("the card shows the wallet, today's figures and the limit with what is left", () => {
    const text = renderDownlineCard(inEnglish, {
      entry: {
        user: { id: 7, firstName: 'Sari', active: true, createdAt: '2026-11-01T00:00:00.000Z' },
        membership: {
          uplineId: 1,
          levelId: 'bronze',
          status: 'active',
          joinedAt: '2026-11-01T00:00:00.000Z',
          requestId: 'r',
          dailyLimit: 40_000,
        },
        level: { id: 'bronze', name: 'Bronze', rules: { step: 1, brands: {}, products: {} } },
      },
      balance: 50_000,
      today: tally,
      spent: 38_500,
    });
    expect(text).toContain('Wallet balance: Rp 50.000');
    expect(text).toContain('Today: 3 transactions, 2 successful · sales Rp 33.000 · your margin Rp 1.500');
    expect(text).toContain('Daily spend limit: Rp 40.000 (spent today Rp 38.500, Rp 1.500 left)');
  });
});
