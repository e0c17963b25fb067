// The calibrated market behaves like the real Binance–Deriv pair (server/venues/sim/profiles.ts gives the sources):
// a basis of a few basis points, a round trip's costs rarely on offer, Deriv's index quoting once a second behind
// Binance. Seeded, on the model alone; bounds are set a little outside what the calibration benchmark measures.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../../../contract/pairs';
import { withOverrides } from '../../../server/venues/sim/params';
import { runSim } from '../../../server/venues/sim/path';
import { CALIBRATED_PARAMS, DEMO_PARAMS } from '../../../server/venues/sim/profiles';
import { measureMarket } from '../../../tools/market-figures';

const SEEDS = [1, 2, 3];
const HOURS = 6;
const calibrated = SEEDS.map((seed) => measureMarket(CALIBRATED_PARAMS, seed, HOURS));

describe('the calibrated market (the default)', () => {
  it('keeps the basis within a few basis points', () => {
    for (const f of calibrated) {
      expect(Math.abs(f.medianSpreadBp)).toBeLessThan(1.5);
      expect(f.medianAbsBp).toBeGreaterThan(1);
      expect(f.medianAbsBp).toBeLessThan(3);
      expect(f.p90AbsBp).toBeLessThan(7);
      expect(f.p99AbsBp).toBeLessThan(12);
    }
  });

  it('reaches the cost of a round trip rarely: |spread| ≥ 30 bp under 0.1 % of the time, ≥ 35 bp under 0.05 %', () => {
    for (const f of calibrated) {
      expect(f.shareAtOrAbove[30]).toBeLessThan(0.001);
      expect(f.shareAtOrAbove[35]).toBeLessThan(0.0005);
      // A few an hour at most, not the old defaults' dozens.
      expect(f.opportunitiesPerHour).toBeLessThan(1);
    }
  });

  it('still dislocates, rarely: about 0.3 an hour per symbol', () => {
    const perHour = calibrated.reduce((sum, f) => sum + f.dislocationsPerHour, 0) / calibrated.length;
    expect(perHour).toBeGreaterThan(0.15);
    expect(perHour).toBeLessThan(0.5);
    expect(Math.max(...calibrated.map((f) => f.maxAbsBp))).toBeGreaterThan(15);
  });

  it('quotes Binance ten times a second and Deriv once a second', () => {
    const counts = { binance: 0, deriv: 0 };
    const seconds = 60;
    runSim(4, (seconds * 1000) / CALIBRATED_PARAMS.tickMs, CALIBRATED_PARAMS, (tick) => {
      for (const venue of tick.symbols['BTC/USDT']!.updated) counts[venue] += 1;
    });
    expect(counts).toEqual({ binance: seconds * 10, deriv: seconds });
  });

  it("spreads by Deriv's lag and smoothing alone as σ·√(lag + τ/2 + hold/2)", () => {
    // No basis, noise or dislocations: what remains is the index trailing the latent price.
    const params = withOverrides(CALIBRATED_PARAMS, {
      basis: { sd: 0 },
      venues: { binance: { noise: 0 }, deriv: { noise: 0 } },
      dislocation: { perMinute: 0 },
    });
    const squares: Record<string, number> = { 'BTC/USDT': 0, 'ETH/USDT': 0 };
    let n = 0;
    runSim(5, 6 * 3600 * 10, params, (tick) => {
      n += 1;
      for (const symbol of SYMBOLS) {
        const { binance, deriv } = tick.symbols[symbol]!.quotes;
        const spread = (deriv.bid + deriv.ask) / (binance.bid + binance.ask) - 1;
        squares[symbol]! += spread * spread;
      }
    });
    const { lagMs, smoothingMs, updateMs } = CALIBRATED_PARAMS.venues.deriv;
    const exposureSeconds = (lagMs + smoothingMs / 2 + updateMs / 2) / 1000;
    for (const symbol of SYMBOLS) {
      const perSecond = CALIBRATED_PARAMS.symbols[symbol]!.annualVolatility / Math.sqrt(365 * 86_400);
      const expected = perSecond * Math.sqrt(exposureSeconds);
      const measured = Math.sqrt(squares[symbol]! / n);
      expect(measured).toBeGreaterThan(expected * 0.8);
      expect(measured).toBeLessThan(expected * 1.25);
    }
  });
});

describe('the demo market', () => {
  it('exaggerates: |spread| is at or above 35 bp a tenth of the time or more', () => {
    const f = measureMarket(DEMO_PARAMS, 1, 2);
    expect(f.shareAtOrAbove[35]).toBeGreaterThan(0.1);
    expect(f.dislocationsPerHour).toBeGreaterThan(30);
  });
});
