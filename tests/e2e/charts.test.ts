// The charts with a week of trades, on a server of its own whose database was filled before it started: the Dashboard's
// spread history (every range) and equity curve, and the Trades report, at 360, 390 and 1440 px, light and dark. What
// the charts drew is read back from their canvases (chart-pixels.ts): time labels that overlap, are cut at an edge or
// repeat, value tags on a price axis, markers closer than their labels are wide, and data that leaves part of the
// width empty all fail the test. Screenshots go to test-results/screenshots.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crowdedLabels, readChart, repeatedLabels, type ChartReading } from './chart-pixels';
import { expectNoSidewaysScroll, launch, screenshot, visible } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';
import { seedWeekOfTrades, WEEK_TRADER } from './week-of-trades';

const ROOT = join(import.meta.dirname, '..', '..');
const SHOTS = join(ROOT, 'test-results', 'screenshots');
const WIDTHS = [360, 390, 1440] as const;
/** Two time labels closer than this read as one. */
const MIN_LABEL_GAP = 6;
/** Two markers (an arrow and a count) closer than this overlap. */
const MIN_MARKER_GAP = 24;

let own: OwnServer;
let base: string;
let browser: Browser;

beforeAll(async () => {
  own = await startOwnServer(
    'charts',
    {
      MARKET: 'sim',
      SIM_SEED: '42',
      ADMIN_EMAIL: 'admin@charts-e2e.test',
      ADMIN_PASSWORD: 'Charts-e2e-admin-1',
    },
    seedWeekOfTrades,
  );
  base = own.url;
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await own?.stop();
});

async function signedIn(width: number, colorScheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    baseURL: base,
    serviceWorkers: 'block',
    colorScheme,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto('/login');
  await page.getByLabel('Email').fill(WEEK_TRADER.email);
  await page.getByLabel('Password', { exact: true }).fill(WEEK_TRADER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(dashboard|settings)$/);
  await page.goto('/dashboard');
  return page;
}

/** Every way a chart's axes can be illegible, as messages (empty when the chart reads well). */

function axisProblems(name: string, r: ChartReading): string[] {
  const problems: string[] = [];
  const { labels } = r.timeAxis;
  if (labels.length < 2) problems.push(`${name}: ${labels.length} time labels`);
  for (const [a, b] of crowdedLabels(labels, MIN_LABEL_GAP))
    problems.push(`${name}: time labels at ${a.left.toFixed(0)} and ${b.left.toFixed(0)} px overlap`);
  for (const l of repeatedLabels(labels)) problems.push(`${name}: the time label at ${l.left.toFixed(0)} px repeats`);
  for (const l of labels)
    if (l.atRightEdge && l.right - l.left <= r.cutLabelWidth)
      problems.push(`${name}: the time label at ${l.left.toFixed(0)} px is cut by the edge`);
  if (r.priceAxisLongestRun > 0.5) problems.push(`${name}: a value tag covers the price axis`);
  return problems;
}

const CASES = WIDTHS.flatMap((width) => (['light', 'dark'] as const).map((scheme) => ({ width, scheme })));

/** The spread grid's step per range (chartData.ts gridStepMs: the first round step giving at most 1200 points). */
const RANGES = {
  '15 min': { ms: 15 * 60_000, stepMs: 1000 },
  '1 h': { ms: 3600_000, stepMs: 5000 },
  '24 h': { ms: 24 * 3600_000, stepMs: 120_000 },
  '7 d': { ms: 7 * 24 * 3600_000, stepMs: 600_000 },
} as const;

interface Drawn {
  stepMs: number;
  /** From the first point to the last. */
  spanMs: number;
  /** x of the first and last points, and the plot's width (CSS px). */
  span: [number | null, number | null, number];
  /** x, kind and count of each marker. */
  markers: [number | null, 'open' | 'close', number][];
}

/**
 * What the spread chart says it drew (its data-drawn), once it is the given range's with its whole week of history
 * and the trades, after the next paint.
 */

async function drawnFor(page: Page, range: { ms: number; stepMs: number }): Promise<Drawn> {
  const handle = await page.waitForFunction((r) => {
    const raw = document.querySelector<HTMLElement>('[data-testid="spread-canvas"]')?.dataset.drawn;
    const drawn = raw ? (JSON.parse(raw) as Drawn) : null;
    // The server's older history and the trades arrive after the cached day: a chart without them is not read yet.
    return drawn?.stepMs === r.stepMs && drawn.spanMs >= r.ms * 0.9 && drawn.markers.length > 0;
  }, range);
  await handle.dispose();
  // The chart settles a frame after its data; it writes what it drew again when it does.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(
    () => JSON.parse(document.querySelector<HTMLElement>('[data-testid="spread-canvas"]')!.dataset.drawn!) as Drawn,
  );
}

/** Markers that overlap or fall outside the plot, and data that leaves part of the width empty. */

function spreadProblems(name: string, d: Drawn): string[] {
  const problems: string[] = [];
  const [first, last, width] = d.span;
  if (first === null || last === null || first > width * 0.02 || last < width * 0.98)
    problems.push(`${name}: the data spans ${first?.toFixed(0)}–${last?.toFixed(0)} px of ${width.toFixed(0)} px`);
  for (const kind of ['open', 'close'] as const) {
    const xs = d.markers.filter((m) => m[1] === kind).map((m) => m[0]);
    if (xs.some((x) => x === null || x < 0 || x > width)) problems.push(`${name}: a ${kind} marker is off the plot`);
    const sorted = (xs.filter((x) => x !== null) as number[]).sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++)
      if (sorted[i]! - sorted[i - 1]! < MIN_MARKER_GAP)
        problems.push(
          `${name}: ${kind} markers at ${sorted[i - 1]!.toFixed(0)} and ${sorted[i]!.toFixed(0)} px overlap`,
        );
  }
  return problems;
}

describe('charts with a week of trades', () => {
  it.each(CASES)('read well at $width px, $scheme', { timeout: 120_000 }, async ({ width, scheme }) => {
    const problems: string[] = [];
    const page = await signedIn(width, scheme);
    const spread = page.getByTestId('spread-chart');
    for (const range of Object.keys(RANGES) as (keyof typeof RANGES)[]) {
      await spread.getByRole('button', { name: range, exact: true }).click();
      const canvas = spread.getByTestId('spread-canvas');
      await visible(canvas);
      await canvas.scrollIntoViewIfNeeded();
      // The pointer left over the chart by the click would draw the crosshair and its labels into the screenshots.
      await page.mouse.move(0, 0);
      const drawn = await drawnFor(page, RANGES[range]);
      problems.push(...axisProblems(`spread ${range}`, await readChart(canvas)));
      problems.push(...spreadProblems(`spread ${range}`, drawn));
      await spread.screenshot({ path: join(SHOTS, `charts-spread-${range.replace(' ', '')}-${scheme}-${width}.png`) });
    }
    const equity = page.getByTestId('equity-canvas');
    await visible(equity);
    await equity.scrollIntoViewIfNeeded();
    problems.push(...axisProblems('equity', await readChart(equity)));
    await page.getByTestId('equity-chart').screenshot({ path: join(SHOTS, `charts-equity-${scheme}-${width}.png`) });
    await screenshot(page, `charts-dashboard-${scheme}`);

    // Trades with the same week: the P&L report's bars by day, the list with each trade's fees.
    await page.goto('/trades');
    const report = page.getByTestId('pnl-report');
    const bars = report.getByTestId('report-canvas');
    await visible(bars);
    await bars.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    problems.push(...axisProblems('report', await readChart(bars)));
    await expectNoSidewaysScroll(page);
    await screenshot(page, `charts-trades-${scheme}`);
    await page.context().close();
    console.log(`${width} ${scheme}:\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });
});
