/**
 * The PNG chart of /report (/laporan): turnover per WIB day as bars, margin as a line. Rendered on
 * the server with Chart.js on @napi-rs/canvas (prebuilt Skia), in the fonts of ./fonts.ts (DejaVu
 * Sans, Twemoji): no network, no system fonts needed.
 */
import type * as ChartJs from 'chart.js';
import type { Locale } from '../domain.ts';
import { fontStack, loadCanvas } from './fonts.ts';
import type { DayPoint } from '../services/daily-series.ts';

let chartJs: Promise<typeof ChartJs> | undefined;

/** Chart.js with every chart type registered, loaded on the first chart (start-up does not need it). */
function loadChartJs(): Promise<typeof ChartJs> {
  chartJs ??= import('chart.js').then((module) => {
    module.Chart.register(...module.registerables);
    return module;
  });
  return chartJs;
}

/** Size of the chart image in pixels (Telegram shows it whole on a phone). */
export const chartSize = { width: 1200, height: 675 } as const;

/** The words on the chart, in the reader's language. */
export interface ChartLabels {
  title: string;
  turnover: string;
  margin: string;
}

const colours = { turnover: '#2e86de', margin: '#10ac84', text: '#2d3436', grid: '#dfe6e9', background: '#ffffff' };

/** The smallest of 1, 2, 2.5, 5 × 10ⁿ at or above `value` (a round tick step). */
function niceStep(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(value, 1)));
  return ([1, 2, 2.5, 5, 10].find((step) => step * power >= value) ?? 10) * power;
}

const intervals = 6;

/**
 * Both value axes when some margin is negative: the same number of round steps below zero on
 * each, so the zero lines (and the grid) of turnover and margin are one line. Without a negative
 * margin both axes simply start at zero.
 */
function alignedAxes(points: readonly DayPoint[]): { turnover: AxisRange; margin: AxisRange } | undefined {
  const lowest = Math.min(0, ...points.map((point) => point.margin));
  if (lowest >= 0) return undefined;
  const highest = Math.max(0, ...points.map((point) => point.margin));
  const below = Math.min(3, Math.max(1, Math.ceil((intervals * -lowest) / (highest - lowest))));
  const marginStep = niceStep(Math.max(highest / (intervals - below), -lowest / below));
  const turnoverStep = niceStep(Math.max(1, ...points.map((point) => point.turnover)) / (intervals - below));
  const range = (step: number): AxisRange => ({ min: -below * step, max: (intervals - below) * step, ticks: { stepSize: step } });
  return { turnover: range(turnoverStep), margin: range(marginStep) };
}

interface AxisRange {
  min: number;
  max: number;
  ticks: { stepSize: number };
}

/** `31/10` for a `YYYY-MM-DD` day. */
const shortDay = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/** The chart of `points` as PNG bytes, with axis amounts written the reader's way (`Rp 1,5 jt` / `Rp 1.5M`). */
export async function renderDailyChart(points: readonly DayPoint[], labels: ChartLabels, locale: Locale): Promise<Buffer> {
  const [{ createCanvas }, { Chart }] = await Promise.all([loadCanvas(), loadChartJs()]);
  const amounts = new Intl.NumberFormat(locale === 'id' ? 'id-ID' : 'en-US', { notation: 'compact', maximumFractionDigits: 1 });
  const rupiahTick = (value: string | number): string => `Rp ${amounts.format(Number(value))}`;
  const aligned = alignedAxes(points);
  const canvas = createCanvas(chartSize.width, chartSize.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = colours.background;
  ctx.fillRect(0, 0, chartSize.width, chartSize.height);
  Chart.defaults.font.family = fontStack;
  Chart.defaults.color = colours.text;
  const config: ChartJs.ChartConfiguration<'bar' | 'line', number[], string> = {
    type: 'bar',
    data: {
      labels: points.map((point) => shortDay(point.day)),
      datasets: [
        {
          type: 'bar',
          label: labels.turnover,
          data: points.map((point) => point.turnover),
          backgroundColor: colours.turnover,
          order: 2,
        },
        {
          type: 'line',
          label: labels.margin,
          data: points.map((point) => point.margin),
          borderColor: colours.margin,
          backgroundColor: colours.margin,
          borderWidth: 3,
          pointRadius: points.length > 40 ? 0 : 4,
          yAxisID: 'margin',
          order: 1,
        },
      ],
    },
    options: {
      animation: false,
      responsive: false,
      devicePixelRatio: 1,
      layout: { padding: 24 },
      plugins: {
        title: { display: true, text: labels.title, font: { size: 28, weight: 'bold' }, padding: { bottom: 16 } },
        legend: {
          position: 'bottom',
          labels: { font: { size: 20 }, padding: 24, sort: (a, b) => (a.datasetIndex ?? 0) - (b.datasetIndex ?? 0) },
        },
      },
      scales: {
        x: { grid: { display: false }, ticks: { font: { size: 16 }, maxRotation: 0, autoSkip: true, autoSkipPadding: 12 } },
        y: {
          beginAtZero: true,
          grid: { color: colours.grid },
          title: { display: true, text: labels.turnover, color: colours.turnover, font: { size: 18 } },
          ...aligned?.turnover,
          ticks: { font: { size: 16 }, callback: (value) => (Number(value) < 0 ? '' : rupiahTick(value)), ...aligned?.turnover.ticks },
        },
        // Margin is a fraction of turnover: on its own scale (right) its ups and downs stay visible.
        margin: {
          position: 'right',
          beginAtZero: true,
          grid: { display: false },
          title: { display: true, text: labels.margin, color: colours.margin, font: { size: 18 } },
          ...aligned?.margin,
          ticks: { font: { size: 16 }, color: colours.margin, callback: rupiahTick, ...aligned?.margin.ticks },
        },
      },
    },
  };
  // Skia's 2d context takes the calls of a browser's (Chart.js types its item as `any`).
  const chart = new Chart(ctx, config);
  try {
    return await canvas.encode('png');
  } finally {
    chart.destroy();
  }
}
