import { describe, expect, it } from 'vitest';
import { chartSize, renderDailyChart } from '../../src/render/chart.ts';
import { pngInfo } from '../helpers/png.ts';

const labels = { title: 'Omzet & margin harian', turnover: 'Omzet', margin: 'Margin' };

describe('renderDailyChart: the PNG chart of daily turnover and margin', () => {
  it('renders a PNG of the chart size, offline', async () => {
    const points = [
      { day: '2026-10-30', turnover: 125_000, margin: 9_500 },
      { day: '2026-10-31', turnover: 0, margin: 0 },
      { day: '2026-11-01', turnover: 310_500, margin: 24_000 },
    ];
    const png = await renderDailyChart(points, labels, 'id');
    expect(pngInfo(png)).toEqual({ width: chartSize.width, height: chartSize.height });
    // A chart with bars is far from a blank canvas of one colour.
    expect(png.length).toBeGreaterThan(10_000);
  });

  it('renders a month of days and a period without sales alike', async () => {
    const month = Array.from({ length: 31 }, (_, i) => ({
      day: `2026-10-${String(i + 1).padStart(2, '0')}`,
      turnover: i * 10_000,
      margin: i * 700 - 3_000,
    }));
    expect(pngInfo(await renderDailyChart(month, labels, 'en'))).toEqual(chartSize);
    expect(pngInfo(await renderDailyChart([{ day: '2026-10-01', turnover: 0, margin: 0 }], labels, 'id'))).toEqual(chartSize);
  });
});
