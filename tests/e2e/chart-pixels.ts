// What a lightweight-charts chart drew, read back from its canvases in the page: the chart draws text to canvas, so
// the time axis's labels are found as runs of inked columns, and a value tag on the price axis as a long unbroken run
// of inked pixels in one row (text is broken by the gaps between glyphs; a tag's filled box is not).
import type { Locator } from 'playwright-core';

export interface AxisLabel {
  /** CSS pixels from the chart's left edge. */
  left: number;
  right: number;
  /** The label's ink, to tell two labels that read the same (identical pixels) from different ones. */
  ink: string;
  /** Ink in the axis's last column: the label reaches the edge (flush with it, or cut by it). */
  atRightEdge: boolean;
}

export interface ChartReading {
  width: number;
  timeAxis: { left: number; width: number; labels: AxisLabel[] };
  /** The longest unbroken run of inked pixels in any row of the right price axis, as a share of its width. */
  priceAxisLongestRun: number;
  priceAxisWidth: number;
  /**
   * The width of "00:0" in the axis's bold font: a label at the edge no wider than this has lost a glyph to it
   * ("15:4"); a whole one — a time, a day — is wider.
   */
  cutLabelWidth: number;
}

/** Reads the chart inside `host` (an element holding one lightweight-charts chart). */
export function readChart(host: Locator): Promise<ChartReading> {
  return host.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const canvases = [...el.querySelectorAll('canvas')].map((c) => ({ c, r: c.getBoundingClientRect() }));
    // Each part of the chart has two canvases in the same place, the drawing first and the crosshair's on top.
    const timeAxis = canvases
      .filter((x) => x.r.width > box.width / 2 && x.r.height < 60)
      .sort((a, b) => b.r.bottom - a.r.bottom)[0];
    const priceAxis = canvases
      .filter((x) => x.r.height > box.height / 2 && Math.abs(x.r.right - box.right) < 2 && x.r.width < box.width / 2)
      .at(0);
    if (!timeAxis) throw new Error('no time axis canvas');
    const ink = (c: HTMLCanvasElement) => {
      const ctx = c.getContext('2d')!;
      const { data } = ctx.getImageData(0, 0, c.width, c.height);
      return (x: number, y: number) => data[(y * c.width + x) * 4 + 3]! > 96;
    };
    // Time axis: the top rows hold the border and tick marks, the text sits below them.
    const t = timeAxis.c;
    const scale = t.width / timeAxis.r.width;
    const inked = ink(t);
    const top = Math.round(6 * scale);
    const columns = Array.from({ length: t.width }, (_, x) => {
      let bits = '';
      for (let y = top; y < t.height; y++) bits += inked(x, y) ? '1' : '0';
      return bits;
    });
    const labels: { left: number; right: number; ink: string; atRightEdge: boolean }[] = [];
    // Glyphs of one label are at most a space apart (about 3 px at 11 px); labels are further apart than that.
    const joinGap = Math.round(4 * scale);
    let current: { start: number; end: number } | null = null;
    const flush = () => {
      if (!current) return;
      labels.push({
        left: current.start / scale + (timeAxis.r.left - box.left),
        right: (current.end + 1) / scale + (timeAxis.r.left - box.left),
        ink: columns.slice(current.start, current.end + 1).join('|'),
        atRightEdge: current.end === t.width - 1,
      });
      current = null;
    };
    columns.forEach((bits, x) => {
      if (!bits.includes('1')) {
        if (current && x - current.end > joinGap) flush();
        return;
      }
      if (current) current.end = x;
      else current = { start: x, end: x };
    });
    flush();
    let longest = 0;
    if (priceAxis) {
      const p = priceAxis.c;
      const pInked = ink(p);
      for (let y = 0; y < p.height; y++) {
        let run = 0;
        for (let x = 0; x < p.width; x++) {
          run = pInked(x, y) ? run + 1 : 0;
          longest = Math.max(longest, run);
        }
      }
      longest /= p.width;
    }
    // The chart's own font (lightweight-charts' default family, at the app's 11 px).
    const measure = document.createElement('canvas').getContext('2d')!;
    measure.font = `bold 11px -apple-system, BlinkMacSystemFont, 'Trebuchet MS', Roboto, Ubuntu, sans-serif`;
    return {
      cutLabelWidth: measure.measureText('00:0').width + 1,
      width: box.width,
      timeAxis: { left: timeAxis.r.left - box.left, width: timeAxis.r.width, labels },
      priceAxisLongestRun: longest,
      priceAxisWidth: priceAxis?.r.width ?? 0,
    };
  });
}

/** Labels that overlap or touch (closer than `minGap` CSS px). */
export function crowdedLabels(labels: readonly AxisLabel[], minGap: number): [AxisLabel, AxisLabel][] {
  const out: [AxisLabel, AxisLabel][] = [];
  for (let i = 1; i < labels.length; i++)
    if (labels[i]!.left - labels[i - 1]!.right < minGap) out.push([labels[i - 1]!, labels[i]!]);
  return out;
}

/** Labels that read the same as another one: the same ink, column for column. */
export function repeatedLabels(labels: readonly AxisLabel[]): AxisLabel[] {
  const seen = new Set<string>();
  return labels.filter((l) => (seen.has(l.ink) ? true : (seen.add(l.ink), false)));
}
