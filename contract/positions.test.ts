import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Trade, TradeLeg } from './entities';
import { exposureUsed, holdTimeLeftMs, unrealisedPnl } from './positions';

const leg = (
  venue: 'binance' | 'deriv',
  side: 'buy' | 'sell',
  price: number,
  quantity: number,
  fee: number,
  close?: { price: number; fee: number },
): TradeLeg => ({
  venue,
  side,
  clientOrderId: `${venue}-1`,
  venueOrderId: null,
  status: close ? 'closed' : 'open',
  open: { price, quantity, fee, at: '2026-01-01T00:00:00Z' },
  close: close ? { price: close.price, quantity, fee: close.fee, at: '2026-01-01T00:01:00Z' } : null,
});

describe('unrealisedPnl', () => {
  it('marks a basis trade to both venues: long spot gains as Binance rises, the Deriv short as Deriv falls', () => {
    const trade = { legs: [leg('binance', 'buy', 100, 2, 0.2), leg('deriv', 'sell', 101, 2, 0.1)] };
    // Converged at 100.5: +1 on the long, +1 on the short, less 0.3 of fees.
    expect(unrealisedPnl(trade, { binance: 100.5, deriv: 100.5 })).toBeCloseTo(1.7, 10);
    // Nothing moved: only the fees paid so far.
    expect(unrealisedPnl(trade, { binance: 100, deriv: 101 })).toBeCloseTo(-0.3, 10);
  });

  it('is unknown (null), not zero, while a venue it holds a leg on has no price', () => {
    const trade = { legs: [leg('binance', 'buy', 100, 1, 0), leg('deriv', 'sell', 101, 1, 0)] };
    expect(unrealisedPnl(trade, { binance: 100, deriv: null })).toBeNull();
    expect(unrealisedPnl(trade, undefined)).toBeNull();
  });

  it('counts a leg already closed at its close price and both its fees, and a leg that failed unfilled as nothing', () => {
    const trade = {
      legs: [
        leg('binance', 'buy', 100, 1, 0.1, { price: 102, fee: 0.1 }),
        { ...leg('deriv', 'sell', 0, 0, 0), open: null, status: 'failed' as const },
      ],
    };
    expect(unrealisedPnl(trade, { binance: 50, deriv: null })).toBeCloseTo(1.8, 10);
  });

  it('is unknown while a leg is still being placed', () => {
    const trade = {
      legs: [
        leg('binance', 'buy', 100, 1, 0.1),
        { ...leg('deriv', 'sell', 0, 0, 0), open: null, status: 'opening' as const },
      ],
    };
    expect(unrealisedPnl(trade, { binance: 100, deriv: 100 })).toBeNull();
  });

  it('a long and an equal short on one price add up to minus the fees, whatever the price', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        fc.double({ min: 0.001, max: 10, noNaN: true }),
        (entry, mark, qty) => {
          const trade = { legs: [leg('binance', 'buy', entry, qty, 0.5), leg('deriv', 'sell', entry, qty, 0.25)] };
          expect(unrealisedPnl(trade, { binance: mark, deriv: mark })).toBeCloseTo(-0.75, 4);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('exposureUsed and holdTimeLeftMs', () => {
  const t = (status: Trade['status'], totalAmount: number) => ({ status, totalAmount });
  it('sums the notional of open trades only', () => {
    expect(exposureUsed([t('pending', 100), t('completed', 500), t('pending', 25.5), t('cancelled', 7)])).toBe(125.5);
    expect(exposureUsed([])).toBe(0);
  });
  it('counts down from the trade opening to the hold limit, never below zero', () => {
    const createdAt = '2026-01-01T00:00:00.000Z';
    const at = Date.parse(createdAt);
    expect(holdTimeLeftMs({ createdAt }, 120_000, at + 30_000)).toBe(90_000);
    expect(holdTimeLeftMs({ createdAt }, 120_000, at + 500_000)).toBe(0);
  });
});
