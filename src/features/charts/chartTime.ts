// Times on a chart's axis, in the time zone the user reads dates in. lightweight-charts reads every time as UTC (its
// tick marks fall on UTC midnights and hours), so each time is shifted by its zone's offset at that moment, the way
// the library's documentation advises: the axis then shows wall-clock time and its day marks fall on local midnights.
// The labels come from one formatter that never gives two tick marks the same text. Pure; no chart library here (the
// tick mark types are the library's numbers, spelled out below).

import { zoneOffsetMs } from '../../lib/format';

/** A moment (ms since the epoch) as the chart's time: whole seconds of the zone's wall clock read as UTC. */
export function toChartTime(ms: number, timeZone: string): number {
  return Math.floor((ms + zoneOffsetMs(ms, timeZone)) / 1000);
}

/** lightweight-charts' TickMarkType, by number (the enum lives in the library, which this module does not load). */
export const TICK = { year: 0, month: 1, dayOfMonth: 2, time: 3, timeWithSeconds: 4 } as const;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * A tick mark's label from a chart time (seconds, wall clock as UTC): the year, the month, the day ("Nov 27"), or the
 * time — with its seconds whenever it does not fall on a whole minute, so marks a few seconds apart never both read
 * "15:33".
 */
export function formatTick(chartSeconds: number, type: number): string {
  const d = new Date(chartSeconds * 1000);
  switch (type) {
    case TICK.year:
      return String(d.getUTCFullYear());
    case TICK.month:
      return MONTHS[d.getUTCMonth()]!;
    case TICK.dayOfMonth:
      return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
    default: {
      const hm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
      return type === TICK.timeWithSeconds || d.getUTCSeconds() !== 0 ? `${hm}:${two(d.getUTCSeconds())}` : hm;
    }
  }
}

/**
 * The crosshair's time: a chart time as day and time to the second ("Nov 27 15:33:08"); a business day (a report's
 * period, as the library gives it: "2026-11-27" or { year, month, day }) as its date ("Nov 27 2026").
 */
export function formatCrosshairTime(time: unknown): string {
  if (typeof time === 'number') {
    const d = new Date(time * 1000);
    return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  }
  const business = time as { year?: unknown; month?: unknown; day?: unknown } | null;
  const day =
    typeof time === 'string'
      ? time.split('-').map(Number)
      : business && typeof business === 'object'
        ? [Number(business.year), Number(business.month), Number(business.day)]
        : null;
  if (!day || day.some((n) => !Number.isFinite(n))) return String(time);
  return `${MONTHS[day[1]! - 1]} ${day[2]} ${day[0]}`;
}
