import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../contract/entities';
import { bodyOf, currentLimits, formFromUser, limitsOf, replayedAnything, sameLimits } from './backtestForm';

const user = { _id: 'u1', maxExposure: 2500, minSpread: 0.0045, maxLoss: 40 } as PublicUser;

describe('backtest form', () => {
  it('starts from the current settings, min spread in percent, the last day, both symbols', () => {
    expect(formFromUser(user)).toEqual({
      range: 'day',
      symbol: 'both',
      maxExposure: '2500',
      minSpreadPercent: '0.45',
      maxLoss: '40',
    });
    expect(currentLimits(user)).toEqual({ maxExposure: 2500, minSpread: 0.0045, maxLoss: 40 });
  });

  it('sends min spread as a fraction and the range ending now', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const limits = limitsOf({ maxExposure: '1000', minSpreadPercent: '0.3', maxLoss: '100' });
    expect(limits).toEqual({ maxExposure: 1000, minSpread: 0.003, maxLoss: 100 });
    expect(bodyOf({ ...formFromUser(user), range: 'week', symbol: 'ETH/USDT' }, limits, now)).toEqual({
      symbol: 'ETH/USDT',
      from: '2026-11-16T12:00:00.000Z',
      to: '2026-11-23T12:00:00.000Z',
      maxExposure: 1000,
      minSpread: 0.003,
      maxLoss: 100,
    });
  });

  it('tells tried limits that are already the settings', () => {
    expect(sameLimits(limitsOf(formFromUser(user)), currentLimits(user))).toBe(true);
    expect(sameLimits(limitsOf({ ...formFromUser(user), maxLoss: '41' }), currentLimits(user))).toBe(false);
  });
});

describe('replayedAnything', () => {
  const replayed = { source: 'mids' as const, bookTicks: 0, secondSamples: 0, minuteSamples: 0, symbols: [] };
  it('is false for a range with no recorded prices, true as soon as anything was replayed', () => {
    expect(replayedAnything(replayed)).toBe(false);
    expect(replayedAnything({ ...replayed, minuteSamples: 1 })).toBe(true);
    expect(replayedAnything({ ...replayed, source: 'books', bookTicks: 3 })).toBe(true);
  });
});
