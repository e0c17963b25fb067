import { describe, expect, it } from 'vitest';
import { zoneOffsetMs } from '../../lib/format';
import { formatCrosshairTime, formatTick, TICK, toChartTime } from './chartTime';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('chart times in the user’s zone', () => {
  it('shifts a moment by its zone’s offset, daylight saving included', () => {
    expect(zoneOffsetMs(Date.parse('2026-01-15T12:00:00Z'), 'Europe/Berlin')).toBe(3600_000);
    expect(zoneOffsetMs(Date.parse('2026-07-15T12:00:00Z'), 'Europe/Berlin')).toBe(7200_000);
    expect(zoneOffsetMs(Date.parse('2026-07-15T12:00:00Z'), 'America/New_York')).toBe(-4 * 3600_000);
    expect(toChartTime(Date.parse('2026-11-27T15:33:20.900Z'), 'Asia/Kolkata')).toBe(at('2026-11-27T21:03:20Z'));
    expect(toChartTime(Date.parse('2026-11-27T15:33:20Z'), 'UTC')).toBe(at('2026-11-27T15:33:20Z'));
  });
});

describe('tick mark labels', () => {
  it('reads as the year, month, day or time the mark stands for', () => {
    const t = at('2026-11-27T15:33:00Z');
    expect(formatTick(t, TICK.year)).toBe('2026');
    expect(formatTick(t, TICK.month)).toBe('Nov');
    expect(formatTick(t, TICK.dayOfMonth)).toBe('Nov 27');
    expect(formatTick(t, TICK.time)).toBe('15:33');
    expect(formatTick(t, TICK.timeWithSeconds)).toBe('15:33:00');
  });
  it('never gives marks seconds apart the same label', () => {
    // The chart's second marks on a one-second series, formatted as the library asks (type Time while seconds are
    // not shown): each is its own label.
    const marks = [0, 15, 30, 45, 60, 75].map((s) => at('2026-11-27T15:33:00Z') + s);
    const labels = marks.map((t) => formatTick(t, TICK.time));
    expect(labels).toEqual(['15:33', '15:33:15', '15:33:30', '15:33:45', '15:34', '15:34:15']);
    expect(new Set(labels).size).toBe(labels.length);
  });
  it('says the crosshair’s time to the second, and a report’s period as its date', () => {
    expect(formatCrosshairTime(at('2026-11-27T09:05:07Z'))).toBe('Nov 27 09:05:07');
    expect(formatCrosshairTime('2026-11-02')).toBe('Nov 2 2026');
    expect(formatCrosshairTime({ year: 2026, month: 1, day: 5 })).toBe('Jan 5 2026');
  });
});
