// What a simulated market looks like to a trader, measured on the model alone (no clock, no engine): the
// distribution of the spread the engine computes, how often it reaches the costs of a round trip, and how often
// dislocations and opportunities arrive. The calibration benchmark prints these; the model's tests bound them.
import type { BidAsk } from '../server/venues/sim/model';
import { modelledSymbols, type SimParams } from '../server/venues/sim/params';
import { runSim } from '../server/venues/sim/path';

/** |spread| levels, in basis points, whose share of time is reported. */
export const SPREAD_LEVELS_BP = [20, 30, 35] as const;
/** The |spread| at which a user with the default limits opens a trade (engine costs.ts: max(minSpread, costs + band)). */
export const DEFAULT_OPEN_THRESHOLD_BP = 35;

export interface MarketFigures {
  hours: number;
  /** Signed spread (Deriv over Binance), median: the basis. */
  medianSpreadBp: number;
  medianAbsBp: number;
  p90AbsBp: number;
  p99AbsBp: number;
  maxAbsBp: number;
  /** Share of time (0..1) with |spread| at or above each level of SPREAD_LEVELS_BP. */
  shareAtOrAbove: Record<(typeof SPREAD_LEVELS_BP)[number], number>;
  /** Dislocations the model started, per symbol per hour. */
  dislocationsPerHour: number;
  /** Times |spread| rose to the default opening threshold, per symbol per hour. */
  opportunitiesPerHour: number;
}

const mid = (q: BidAsk): number => (q.bid + q.ask) / 2;

/** Runs `hours` of the market under `seed` and measures it at every model step (so shares are shares of time). */
export function measureMarket(params: SimParams, seed: number, hours: number): MarketFigures {
  const steps = Math.round((hours * 3600 * 1000) / params.tickMs);
  // Every pair the market models (the spec's two unless the parameters name more).
  const SYMBOLS = modelledSymbols(params);
  const abs = new Float32Array(steps * SYMBOLS.length);
  const signed = new Float32Array(steps * SYMBOLS.length);
  const above = new Map<string, boolean>();
  let n = 0;
  let dislocations = 0;
  let opportunities = 0;
  runSim(seed, steps, params, (tick) => {
    dislocations += tick.started.length;
    for (const symbol of SYMBOLS) {
      const { binance, deriv } = tick.symbols[symbol]!.quotes;
      const spreadBp = ((mid(deriv) - mid(binance)) / mid(binance)) * 10_000;
      signed[n] = spreadBp;
      abs[n] = Math.abs(spreadBp);
      n += 1;
      const isAbove = Math.abs(spreadBp) >= DEFAULT_OPEN_THRESHOLD_BP;
      if (isAbove && !above.get(symbol)) opportunities += 1;
      above.set(symbol, isAbove);
    }
  });
  abs.sort();
  signed.sort();
  const at = (sorted: Float32Array, p: number): number =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  const share = (levelBp: number): number => {
    let count = 0;
    for (let i = abs.length - 1; i >= 0 && abs[i]! >= levelBp; i -= 1) count += 1;
    return count / abs.length;
  };
  const perSymbolHour = (count: number) => count / SYMBOLS.length / hours;
  return {
    hours,
    medianSpreadBp: at(signed, 0.5),
    medianAbsBp: at(abs, 0.5),
    p90AbsBp: at(abs, 0.9),
    p99AbsBp: at(abs, 0.99),
    maxAbsBp: abs[abs.length - 1] ?? NaN,
    shareAtOrAbove: { 20: share(20), 30: share(30), 35: share(35) },
    dislocationsPerHour: perSymbolHour(dislocations),
    opportunitiesPerHour: perSymbolHour(opportunities),
  };
}
