// The market model: one latent price per symbol (geometric Brownian motion) quoted by each venue with its own lag,
// noise and spread, plus dislocations that open a gap on Deriv and mostly converge. Deterministic under the seed.
import { SYMBOLS, VENUES, type SymbolId, type VenueId } from '../../../contract/domain';
import { secondsPerYear, type DislocationParams, type SimParams } from './params';
import { createRng, type Rng } from './prng';

export interface BidAsk {
  bid: number;
  ask: number;
}

export interface SymbolTick {
  latent: number;
  /** The gap Deriv's mid currently carries over the lagged latent price, a fraction (positive: Deriv above). */
  dislocation: number;
  quotes: Record<VenueId, BidAsk>;
}

export interface DislocationEvent {
  tick: number;
  symbol: SymbolId;
  /** Signed initial size, a fraction. */
  size: number;
  widens: boolean;
  halfLifeSeconds: number;
}

export interface SimTick {
  tick: number;
  symbols: Record<SymbolId, SymbolTick>;
  /** Dislocations that began on this tick. */
  started: DislocationEvent[];
}

interface SymbolState {
  latent: number;
  /** Recent latent prices, newest last, long enough for the laggiest venue. */
  history: number[];
  dislocation: number;
  widenTarget: number;
  widenTicksLeft: number;
  decayPerTick: number;
}

export interface SimState {
  readonly rng: Rng;
  tick: number;
  readonly symbols: Record<SymbolId, SymbolState>;
}

export function createSimState(seed: number, params: SimParams): SimState {
  const rng = createRng(seed);
  const maxLag = Math.max(...VENUES.map((v) => params.venues[v].lagTicks));
  const symbolState = (symbol: SymbolId): SymbolState => {
    const [low, high] = params.symbols[symbol].priceRange;
    const latent = rng.between(low, high);
    return {
      latent,
      history: Array.from({ length: maxLag + 1 }, () => latent),
      dislocation: 0,
      widenTarget: 0,
      widenTicksLeft: 0,
      decayPerTick: 1,
    };
  };
  return { rng, tick: -1, symbols: { 'BTC/USDT': symbolState('BTC/USDT'), 'ETH/USDT': symbolState('ETH/USDT') } };
}

const round = (value: number, decimals: number): number => {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
};

/** Advances the state by one tick (mutating it, for speed) and returns every venue's quote for every symbol. */
export function stepSim(state: SimState, params: SimParams): SimTick {
  state.tick += 1;
  const dtSeconds = params.tickMs / 1000;
  const started: DislocationEvent[] = [];
  const symbols = {} as Record<SymbolId, SymbolTick>;
  for (const symbol of SYMBOLS) {
    const s = state.symbols[symbol];
    const p = params.symbols[symbol];
    if (state.tick > 0) {
      const sigma = p.annualVolatility * Math.sqrt(dtSeconds / secondsPerYear);
      s.latent *= Math.exp(-0.5 * sigma * sigma + sigma * state.rng.normal());
      s.history.push(s.latent);
      s.history.shift();
      const event = advanceDislocation(state.rng, s, params.dislocation, dtSeconds, params.tickMs);
      if (event) started.push({ tick: state.tick, symbol, ...event });
    }
    const quotes = {} as Record<VenueId, BidAsk>;
    for (const venue of VENUES) {
      const v = params.venues[venue];
      const lagged = s.history[s.history.length - 1 - v.lagTicks] ?? s.latent;
      const gap = venue === 'deriv' ? s.dislocation : 0;
      const mid = lagged * (1 + gap) * (1 + v.noise * state.rng.normal());
      quotes[venue] = { bid: round(mid * (1 - v.halfSpread), p.decimals), ask: round(mid * (1 + v.halfSpread), p.decimals) };
    }
    symbols[symbol] = { latent: s.latent, dislocation: s.dislocation, quotes };
  }
  return { tick: state.tick, symbols, started };
}

/** Moves one symbol's dislocation on by a tick; returns the description of a dislocation that starts now, if any. */
function advanceDislocation(
  rng: Rng,
  s: SymbolState,
  d: DislocationParams,
  dtSeconds: number,
  tickMs: number,
): Omit<DislocationEvent, 'tick' | 'symbol'> | null {
  if (s.widenTicksLeft > 0) {
    s.dislocation += (s.widenTarget - s.dislocation) / s.widenTicksLeft;
    s.widenTicksLeft -= 1;
  } else if (s.dislocation !== 0) {
    s.dislocation *= s.decayPerTick;
    if (Math.abs(s.dislocation) < 1e-6) s.dislocation = 0;
  }
  if (s.dislocation !== 0) s.dislocation += Math.abs(s.dislocation) * d.jitter * Math.sqrt(dtSeconds) * rng.normal();

  const arrivalProbability = 1 - Math.exp((-d.perMinute * dtSeconds) / 60);
  if (rng.uniform() >= arrivalProbability) return null;
  const size = rng.between(d.size[0], d.size[1]) * (rng.uniform() < 0.5 ? -1 : 1);
  const widens = rng.uniform() < d.widenProbability;
  const sticky = rng.uniform() < d.stickyProbability;
  const halfLifeSeconds = sticky ? d.stickyHalfLifeSeconds : rng.between(d.halfLifeSeconds[0], d.halfLifeSeconds[1]);
  s.dislocation += size;
  s.decayPerTick = Math.exp((-Math.LN2 * dtSeconds) / halfLifeSeconds);
  if (widens) {
    s.widenTarget = s.dislocation + size * (rng.between(d.widenFactor[0], d.widenFactor[1]) - 1);
    s.widenTicksLeft = Math.max(1, Math.round((rng.between(d.widenSeconds[0], d.widenSeconds[1]) * 1000) / tickMs));
  } else {
    s.widenTicksLeft = 0;
  }
  return { size, widens, halfLifeSeconds };
}
