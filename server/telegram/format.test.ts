import { describe, expect, it } from 'vitest';
import { dateTime, escapeHtml, pnl, startOfDay, usdt } from './format';

describe('the bot reads figures and times as the linked user does', () => {
  it('groups and signs money in the user locale', () => {
    expect(usdt({ locale: 'de-DE', timeZone: 'UTC' }, 1234.5)).toBe('1.234,50 USDT');
    expect(pnl({ locale: 'en-US', timeZone: 'UTC' }, -0.0312)).toBe('-0.0312 USDT');
    expect(pnl({ locale: 'en-US', timeZone: 'UTC' }, 2)).toBe('+2.00 USDT');
    expect(pnl({ locale: 'en-US', timeZone: 'UTC' }, 0)).toBe('0.00 USDT');
  });

  it('shows times in the user zone, naming it', () => {
    const at = '2026-11-26T13:03:00Z';
    expect(dateTime({ locale: 'de-DE', timeZone: 'Europe/Berlin' }, at)).toBe('26.11.2026, 14:03 (Europe/Berlin)');
    expect(dateTime({ locale: 'en-US', timeZone: 'Asia/Tokyo' }, at)).toBe('Nov 26, 2026, 10:03 PM (Asia/Tokyo)');
  });

  it("finds the start of the user's day", () => {
    const now = new Date('2026-11-26T23:30:00Z');
    expect(startOfDay('Europe/Berlin', now).toISOString()).toBe('2026-11-26T23:00:00.000Z');
    expect(startOfDay('UTC', now).toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(startOfDay('America/New_York', now).toISOString()).toBe('2026-11-26T05:00:00.000Z');
  });

  it('escapes what Telegram HTML would read as markup', () => {
    expect(escapeHtml('a < b & c > d')).toBe('a &lt; b &amp; c &gt; d');
  });
});
