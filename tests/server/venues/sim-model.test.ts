import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_SYMBOLS as SYMBOLS } from '../../../contract/pairs';
import { createRng, nextMulberry32 } from '../../../server/venues/sim/prng';
import { simParams } from '../../../server/venues/sim/params';
import { DEMO_PARAMS } from '../../../server/venues/sim/profiles';
import { runSim, simulatePath } from '../../../server/venues/sim/path';
import { SimMarket } from '../../../server/venues/sim/market';
import type { Quote } from '../../../server/venues/types';

const mid = (q: { bid: number; ask: number }): number => (q.bid + q.ask) / 2;

describe('mulberry32', () => {
  it('is a pure function of its state', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (state) => {
        const a = nextMulberry32(state);
        const b = nextMulberry32(state);
        expect(a).toEqual(b);
        expect(a.value).toBeGreaterThanOrEqual(0);
        expect(a.value).toBeLessThan(1);
      }),
    );
  });

  it('matches the published reference implementation', () => {
    // The widely published closure form of mulberry32, kept verbatim as the oracle.
    const reference = (seed: number) => {
      let a = seed;
      return () => {
        let t = (a += 0x6d2b79f5);
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const oracle = reference(seed);
        const rng = createRng(seed);
        for (let i = 0; i < 20; i += 1) expect(rng.uniform()).toBe(oracle());
      }),
    );
    expect(createRng(1).uniform()).toBe(0.6270739405881613);
  });

  it('draws roughly standard normals', () => {
    const rng = createRng(42);
    const n = 20_000;
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < n; i += 1) {
      const x = rng.normal();
      sum += x;
      squares += x * x;
    }
    expect(Math.abs(sum / n)).toBeLessThan(0.03);
    expect(Math.abs(squares / n - 1)).toBeLessThan(0.04);
  });
});

describe('simulatePath', () => {
  it('is deterministic under a seed and differs across seeds', () => {
    const a = simulatePath(7, 500);
    const b = simulatePath(7, 500);
    const c = simulatePath(8, 500);
    expect(a).toEqual(b);
    expect(a.ticks[499]).not.toEqual(c.ticks[499]);
  });

  it('starts prices in the realistic ranges and keeps every book ordered', () => {
    for (let seed = 1; seed <= 50; seed += 1) {
      const { ticks } = simulatePath(seed, 200);
      const first = ticks[0]!.symbols;
      expect(first['BTC/USDT']!.latent).toBeGreaterThanOrEqual(60_000);
      expect(first['BTC/USDT']!.latent).toBeLessThanOrEqual(100_000);
      expect(first['ETH/USDT']!.latent).toBeGreaterThanOrEqual(2_000);
      expect(first['ETH/USDT']!.latent).toBeLessThanOrEqual(5_000);
      for (const tick of ticks) {
        for (const symbol of SYMBOLS) {
          const { binance, deriv } = tick.symbols[symbol]!.quotes;
          expect(binance.bid).toBeLessThanOrEqual(binance.ask);
          expect(deriv.bid).toBeLessThanOrEqual(deriv.ask);
        }
      }
    }
  });

  it('moves the latent price with realistic intraday volatility', () => {
    // A quarter of a simulated day per seed at one tick a second: the log-return spread should match the annual figure.
    const params = simParams({ tickMs: 1000, dislocation: { perMinute: 0 } });
    const returns: number[] = [];
    for (let seed = 1; seed <= 40; seed += 1) {
      const latent: number[] = [];
      runSim(seed, 86_400 / 4, params, (tick) => latent.push(tick.symbols['BTC/USDT']!.latent));
      returns.push(Math.log(latent[latent.length - 1]! / latent[0]!));
    }
    const sd = Math.sqrt(returns.reduce((s, r) => s + r * r, 0) / returns.length);
    const expected = params.symbols['BTC/USDT']!.annualVolatility * Math.sqrt(86_400 / 4 / (365 * 86_400));
    expect(sd).toBeGreaterThan(expected * 0.6);
    expect(sd).toBeLessThan(expected * 1.5);
  });

  it('keeps the venues within a few basis points of each other without dislocations', () => {
    const params = simParams({ dislocation: { perMinute: 0 } });
    for (let seed = 1; seed <= 20; seed += 1) {
      const { ticks, dislocations } = simulatePath(seed, 2_000, params);
      expect(dislocations).toEqual([]);
      for (const tick of ticks) {
        for (const symbol of SYMBOLS) {
          const { binance, deriv } = tick.symbols[symbol]!.quotes;
          expect(Math.abs(mid(deriv) / mid(binance) - 1)).toBeLessThan(0.0015);
        }
      }
    }
  });

  it('opens dislocations at the configured Poisson rate, sized 0.3–1.5 %, and mostly converges within 90 s (demo profile)', () => {
    const params = DEMO_PARAMS;
    const ticksPerSecond = 1000 / params.tickMs;
    const minutes = 10;
    const paths = 10_000 / 50;
    let count = 0;
    let judged = 0;
    let converged = 0;
    let widened = 0;
    for (let seed = 1; seed <= paths; seed += 1) {
      const { ticks, dislocations } = simulatePath(seed, minutes * 60 * ticksPerSecond, params);
      count += dislocations.length;
      for (const event of dislocations) {
        expect(Math.abs(event.size)).toBeGreaterThanOrEqual(0.003);
        expect(Math.abs(event.size)).toBeLessThanOrEqual(0.015);
        if (event.widens) widened += 1;
        const end = event.tick + 90 * ticksPerSecond;
        if (end >= ticks.length) continue;
        judged += 1;
        for (let i = event.tick; i <= end; i += 1) {
          if (Math.abs(ticks[i]!.symbols[event.symbol]!.dislocation) < 0.0015) {
            converged += 1;
            break;
          }
        }
      }
    }
    const perSymbolMinute = count / paths / minutes / SYMBOLS.length;
    expect(perSymbolMinute).toBeGreaterThan(params.dislocation.perMinute * 0.85);
    expect(perSymbolMinute).toBeLessThan(params.dislocation.perMinute * 1.15);
    expect(converged / judged).toBeGreaterThan(0.7);
    expect(widened / count).toBeGreaterThan(0.15);
    expect(widened / count).toBeLessThan(0.35);
  });

  it('shows a user with minSpread 0.002 an opportunity within two minutes on most paths (demo profile)', () => {
    // A spread beats 0.002 plus round-trip costs (2 × 0.1 % taker, commission) at about 0.45 %.
    const params = DEMO_PARAMS;
    const horizon = 120 * (1000 / params.tickMs);
    let seen = 0;
    const paths = 200;
    for (let seed = 1; seed <= paths; seed += 1) {
      const { ticks } = simulatePath(seed, horizon, params);
      const found = ticks.some((t) =>
        SYMBOLS.some((s) => Math.abs(mid(t.symbols[s]!.quotes.deriv) / mid(t.symbols[s]!.quotes.binance) - 1) > 0.0045),
      );
      if (found) seen += 1;
    }
    expect(seen / paths).toBeGreaterThan(0.85);
  });
});

describe('SimMarket', () => {
  it('quotes on a virtual clock, each venue at its own rate, the same prices as the path generator', () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 10_000);
    const params = simParams({ tickMs: 200, venues: { binance: { updateMs: 200 }, deriv: { updateMs: 1000 } } });
    const market = new SimMarket({ seed: 99, params, scheduler });
    const binance: Quote[] = [];
    const deriv: Quote[] = [];
    const subscriptions = [
      market.quotes('binance', 'ETH/USDT').subscribe((q) => binance.push(q)),
      market.quotes('deriv', 'ETH/USDT').subscribe((q) => deriv.push(q)),
    ];
    market.start();
    scheduler.flush();
    subscriptions.forEach((s) => s.unsubscribe());
    market.close();
    // Replayed first quote at t=0, then Binance every 200 ms and Deriv every 1,000 ms up to the 10 s frame limit.
    expect(binance.length).toBe(51);
    expect(binance[1]!.ts - binance[0]!.ts).toBe(200);
    expect(deriv.length).toBe(11);
    expect(deriv.map((q) => q.ts)).toEqual(Array.from({ length: 11 }, (_, i) => i * 1000));
    const path = simulatePath(99, 51, params);
    expect(binance.map((q) => q.bid)).toEqual(path.ticks.map((t) => t.symbols['ETH/USDT']!.quotes.binance.bid));
    const derivTicks = path.ticks.filter((t) => t.symbols['ETH/USDT']!.updated.includes('deriv'));
    expect(deriv.map((q) => q.bid)).toEqual(derivTicks.map((t) => t.symbols['ETH/USDT']!.quotes.deriv.bid));
  });

  it('replays the latest quote to a late subscriber and steps by hand', () => {
    const market = new SimMarket({ seed: 3 });
    market.step();
    const latest = market.latest('binance', 'BTC/USDT');
    let replayed: Quote | undefined;
    market
      .quotes('binance', 'BTC/USDT')
      .subscribe((q) => (replayed ??= q))
      .unsubscribe();
    expect(replayed).toEqual(latest);
    market.close();
  });
});
