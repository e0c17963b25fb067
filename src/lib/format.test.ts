import { describe, expect, it } from 'vitest';
import {
  describeSpread,
  formatAgo,
  formatLatency,
  formatAge,
  formatBp,
  formatClock,
  formatCountdown,
  formatDate,
  formatDateTime,
  formatDayTime,
  formatTradeDate,
  zonedDayStart,
} from './format';

describe('describeSpread', () => {
  it.each([
    { spread: 0.0027, text: 'Deriv 0.27% above Binance' },
    { spread: -0.0027, text: 'Deriv 0.27% below Binance' },
    { spread: 0.00001, text: 'Deriv level with Binance' },
    { spread: null, text: 'No spread yet' },
    { spread: Number.NaN, text: 'No spread yet' },
  ])('$spread → $text', ({ spread, text }) => {
    expect(describeSpread(spread)).toBe(text);
  });
});

describe('formatCountdown and formatAge', () => {
  it('shows minutes and seconds left, never below zero', () => {
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(8_200)).toBe('0:09');
    expect(formatCountdown(-5)).toBe('0:00');
  });
  it('shows a quote age to a tenth of a second while it is young', () => {
    expect(formatAge(420)).toBe('0.4 s');
    expect(formatAge(12_400)).toBe('12 s');
    expect(formatAge(null)).toBe('no quote');
  });
});

describe('formatBp', () => {
  it('shows basis points with two decimals', () => {
    expect(formatBp(0.000123)).toBe('1.23 bp');
    expect(formatBp(0)).toBe('0.00 bp');
  });
});

describe("dates in the user's time zone", () => {
  // 2026-03-29 00:30 UTC: in Paris the clocks went forward at 01:00 UTC that day, in New York three weeks earlier.
  const springNight = '2026-03-29T00:30:00.000Z';
  const afterSwitch = '2026-03-29T01:30:00.000Z';

  it("shows one instant on each zone's own clock, DST included", () => {
    expect(formatTradeDate(springNight, 'UTC')).toBe('Mar 29, 00:30');
    expect(formatTradeDate(springNight, 'Europe/Paris')).toBe('Mar 29, 01:30'); // still winter time, UTC+1
    expect(formatTradeDate(afterSwitch, 'Europe/Paris')).toBe('Mar 29, 03:30'); // summer time, UTC+2
    expect(formatTradeDate(springNight, 'America/New_York')).toBe('Mar 28, 20:30'); // already EDT, UTC−4
    expect(formatTradeDate(springNight, 'Asia/Kolkata')).toBe('Mar 29, 06:00'); // UTC+5:30, no DST
    expect(formatTradeDate(springNight, 'Pacific/Auckland')).toBe('Mar 29, 13:30'); // NZDT, UTC+13
  });

  it('moves the calendar day with the zone', () => {
    const lateEvening = '2026-11-30T23:30:00.000Z';
    expect(formatDate(lateEvening, 'UTC')).toBe('Nov 30, 2026');
    expect(formatDate(lateEvening, 'Asia/Tokyo')).toBe('Dec 1, 2026');
    expect(formatDate(lateEvening, 'America/Los_Angeles')).toBe('Nov 30, 2026');
    expect(formatDayTime(lateEvening, 'Asia/Tokyo')).toBe('Dec 1, 08:30');
  });

  it('writes midnight as 00, never 24, and seconds where asked', () => {
    expect(formatClock('2026-06-01T22:00:05.000Z', 'Europe/Berlin')).toBe('00:00:05');
    expect(formatDateTime('2026-06-01T22:00:05.000Z', 'Europe/Berlin')).toBe('2 Jun 2026, 00:00:05');
    expect(formatDateTime(null, 'UTC')).toBe('—');
    expect(formatTradeDate('not a date', 'UTC')).toBe('');
  });

  it('finds the instant a calendar day starts in the zone, on DST days too', () => {
    expect(new Date(zonedDayStart('2026-11-21', 'UTC')!).toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(new Date(zonedDayStart('2026-11-21', 'Asia/Tokyo')!).toISOString()).toBe('2026-11-20T15:00:00.000Z');
    // The day the clocks go forward in Paris starts at winter time, and the next at summer time: a 23-hour day.
    const start = zonedDayStart('2026-03-29', 'Europe/Paris')!;
    const end = zonedDayStart('2026-03-29', 'Europe/Paris', 1)!;
    expect(new Date(start).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(end).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(end - start).toBe(23 * 3_600_000);
    // New York's fall-back day has 25 hours.
    const nyStart = zonedDayStart('2026-11-01', 'America/New_York')!;
    expect(zonedDayStart('2026-11-01', 'America/New_York', 1)! - nyStart).toBe(25 * 3_600_000);
    expect(new Date(zonedDayStart('2026-12-31', 'America/New_York', 1)!).toISOString()).toBe(
      '2027-01-01T05:00:00.000Z',
    );
    // Santiago springs forward at midnight: that day starts at 01:00 local, the first instant that exists.
    expect(formatTradeDate(zonedDayStart('2026-09-06', 'America/Santiago')!, 'America/Santiago')).toBe('Sep 06, 01:00');
    expect(zonedDayStart('21/11/2026', 'UTC')).toBeNull();
  });
});

describe('formatAgo and formatLatency', () => {
  it('says how long ago in the largest whole unit', () => {
    expect(formatAgo(400)).toBe('just now');
    expect(formatAgo(12_900)).toBe('12 s ago');
    expect(formatAgo(185_000)).toBe('3 min ago');
    expect(formatAgo(2 * 3_600_000 + 5)).toBe('2 h ago');
    expect(formatAgo(3 * 86_400_000)).toBe('3 d ago');
    expect(formatAgo(null)).toBe('');
  });
  it('shows a round trip in milliseconds, a tenth under 10 ms', () => {
    expect(formatLatency(0.84)).toBe('0.8 ms');
    expect(formatLatency(84.4)).toBe('84 ms');
    expect(formatLatency(1240)).toBe('1,240 ms');
  });
});
