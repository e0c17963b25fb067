// Tunables of the simulated market. Defaults aim at realism first and, second, at a user with minSpread 0.002
// seeing an opportunity within a minute or two.
import type { SymbolId, VenueId } from '../../../contract/domain';

export interface SymbolSimParams {
  /** The starting latent price is drawn uniformly from this range under the seed. */
  priceRange: readonly [number, number];
  /** Annualised volatility of the latent price (geometric Brownian motion, no drift). */
  annualVolatility: number;
  /** Price decimals the venues quote in. */
  decimals: number;
}

export interface VenueSimParams {
  /** Half the bid/ask spread, as a fraction of the mid. */
  halfSpread: number;
  /** Standard deviation of the venue's own i.i.d. quote noise, as a fraction of the mid. */
  noise: number;
  /** How many ticks the venue's quote trails the latent price. */
  lagTicks: number;
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
  /** Time between ticks; every tick quotes every symbol on every venue. */
  tickMs: number;
  symbols: Record<SymbolId, SymbolSimParams>;
  venues: Record<VenueId, VenueSimParams>;
  dislocation: DislocationParams;
}

const SECONDS_PER_YEAR = 365 * 24 * 3600;
/** Seconds in a year, for turning annual volatility into per-tick volatility. */
export const secondsPerYear = SECONDS_PER_YEAR;

export const DEFAULT_SIM_PARAMS: SimParams = {
  tickMs: 250,
  symbols: {
    'BTC/USDT': { priceRange: [60_000, 100_000], annualVolatility: 0.6, decimals: 2 },
    'ETH/USDT': { priceRange: [2_000, 5_000], annualVolatility: 0.75, decimals: 2 },
  },
  venues: {
    binance: { halfSpread: 0.000005, noise: 0.00002, lagTicks: 0 },
    deriv: { halfSpread: 0.0002, noise: 0.0001, lagTicks: 2 },
  },
  dislocation: {
    perMinute: 0.8,
    size: [0.003, 0.015],
    widenProbability: 0.25,
    widenFactor: [1.15, 1.6],
    widenSeconds: [2, 10],
    halfLifeSeconds: [4, 15],
    stickyProbability: 0.1,
    stickyHalfLifeSeconds: 120,
    jitter: 0.05,
  },
};

export interface SimParamsOverrides {
  tickMs?: number;
  symbols?: Partial<Record<SymbolId, Partial<SymbolSimParams>>>;
  venues?: Partial<Record<VenueId, Partial<VenueSimParams>>>;
  dislocation?: Partial<DislocationParams>;
}

/** Defaults with some values replaced, one level deep per symbol and venue. */
export function simParams(overrides: SimParamsOverrides = {}): SimParams {
  const base = DEFAULT_SIM_PARAMS;
  return {
    tickMs: overrides.tickMs ?? base.tickMs,
    symbols: {
      'BTC/USDT': { ...base.symbols['BTC/USDT'], ...overrides.symbols?.['BTC/USDT'] },
      'ETH/USDT': { ...base.symbols['ETH/USDT'], ...overrides.symbols?.['ETH/USDT'] },
    },
    venues: {
      binance: { ...base.venues.binance, ...overrides.venues?.binance },
      deriv: { ...base.venues.deriv, ...overrides.venues?.deriv },
    },
    dislocation: { ...base.dislocation, ...overrides.dislocation },
  };
}
