// The shape of the simulated market's tunables. The values, with their sources and reasoning, are in profiles.ts.
import type { SymbolId, VenueId } from '../../../contract/domain';
import { CALIBRATED_PARAMS } from './profiles';

export interface SymbolSimParams {
  /** The starting latent price is drawn uniformly from this range under the seed. */
  priceRange: readonly [number, number];
  /** Annualised volatility of the latent price (geometric Brownian motion, no drift). */
  annualVolatility: number;
  /** Price decimals the venues quote in; a book is never narrower than one step of the last decimal. */
  decimals: number;
}

export interface VenueSimParams {
  /** Half the bid/ask spread, as a fraction of the mid. */
  halfSpread: number;
  /** Standard deviation of the venue's own i.i.d. noise on each quote it publishes, as a fraction of the mid. */
  noise: number;
  /** How long the venue's price trails the latent price, ms (rounded to whole ticks). */
  lagMs: number;
  /** Time constant of an index feed's exponential smoothing, ms; 0 for a venue that quotes its own book. */
  smoothingMs: number;
  /** How often the venue publishes a quote, ms (rounded to whole ticks, at least one); it holds its quote between. */
  updateMs: number;
}

/** Deriv's premium over Binance outside dislocations: an Ornstein–Uhlenbeck process per symbol. */
export interface BasisParams {
  /** Long-run mean, a fraction (positive: Deriv above Binance). */
  mean: number;
  /** Stationary standard deviation, a fraction; 0 keeps the basis at its mean. */
  sd: number;
  /** Half-life of reversion to the mean, seconds. */
  halfLifeSeconds: number;
}

export interface DislocationParams {
  /** Poisson arrival rate of dislocations, per symbol per minute. */
  perMinute: number;
  /** Size of the gap opened on Deriv, a fraction of the price, drawn uniformly. */
  size: readonly [number, number];
  /** Chance that a dislocation keeps widening for a while before it converges. */
  widenProbability: number;
  /** A widening dislocation grows to this multiple of its initial size... */
  widenFactor: readonly [number, number];
  /** ...over this many seconds. */
  widenSeconds: readonly [number, number];
  /** Half-life of convergence, seconds, drawn uniformly. */
  halfLifeSeconds: readonly [number, number];
  /** Chance that a dislocation converges only slowly (a trade on it may hit its time limit). */
  stickyProbability: number;
  stickyHalfLifeSeconds: number;
  /** Relative noise of the gap per √second, so convergence is not a smooth curve. */
  jitter: number;
}

export interface SimParams {
  /** Time between model steps; the fastest venue can quote once a step. */
  tickMs: number;
  /** The pairs this market models, in the order it draws them (the catalogue's). */
  symbols: Record<SymbolId, SymbolSimParams>;
  venues: Record<VenueId, VenueSimParams>;
  basis: BasisParams;
  dislocation: DislocationParams;
}

/** The market a server runs unless SIM_PROFILE says otherwise. */
export const DEFAULT_SIM_PARAMS: SimParams = CALIBRATED_PARAMS;

/** Seconds in a year, for turning annual volatility into per-tick volatility. */
export const secondsPerYear = 365 * 24 * 3600;

/** A duration in whole ticks (at least `min`). */
export const ticksOf = (ms: number, tickMs: number, min = 0): number => Math.max(min, Math.round(ms / tickMs));

export interface SimParamsOverrides {
  tickMs?: number;
  symbols?: Partial<Record<SymbolId, Partial<SymbolSimParams>>>;
  venues?: Partial<Record<VenueId, Partial<VenueSimParams>>>;
  basis?: Partial<BasisParams>;
  dislocation?: Partial<DislocationParams>;
}

/** `base` with some values replaced, one level deep per symbol and venue. */
export function withOverrides(base: SimParams, overrides: SimParamsOverrides = {}): SimParams {
  return {
    tickMs: overrides.tickMs ?? base.tickMs,
    symbols: Object.fromEntries(
      modelledSymbols(base).map((s) => [s, { ...symbolParams(base, s), ...overrides.symbols?.[s] }]),
    ),
    venues: {
      binance: { ...base.venues.binance, ...overrides.venues?.binance },
      deriv: { ...base.venues.deriv, ...overrides.venues?.deriv },
    },
    basis: { ...base.basis, ...overrides.basis },
    dislocation: { ...base.dislocation, ...overrides.dislocation },
  };
}

/** The pairs a market models, in its order. */
export const modelledSymbols = (params: Pick<SimParams, 'symbols'>): SymbolId[] =>
  Object.keys(params.symbols) as SymbolId[];

/** One modelled pair's parameters; throws for a pair the market does not model. */
export function symbolParams(params: Pick<SimParams, 'symbols'>, symbol: SymbolId): SymbolSimParams {
  const p = params.symbols[symbol];
  if (!p) throw new Error(`The simulated market does not model ${symbol}`);
  return p;
}

/** The default market (the calibrated profile) with some values replaced: tests' and demonstrations' own markets. */
export function simParams(overrides: SimParamsOverrides = {}): SimParams {
  return withOverrides(DEFAULT_SIM_PARAMS, overrides);
}
