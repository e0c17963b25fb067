// The market model: one latent price per symbol (geometric Brownian motion). Binance quotes it at once; Deriv quotes
// an index of it — delayed, smoothed, published once a second — plus a slowly wandering basis and, rarely, a
// dislocation that converges or widens. Each venue adds its own noise and spread. Deterministic under the seed.
// The parameters and their sources are in profiles.ts.
import { VENUES, type SymbolId, type VenueId } from '../../../contract/domain';
import {
  modelledSymbols,
  secondsPerYear,
  symbolParams,
  ticksOf,
  type DislocationParams,
  type SimParams,
  type VenueSimParams,
} from './params';
import { createRng, type Rng } from './prng';

export interface BidAsk {
  bid: number;
  ask: number;
}

export interface SymbolTick {
  latent: number;
  /** The gap Deriv's mid currently carries over its index, a fraction (positive: Deriv above). */
  dislocation: number;
  /** Deriv's premium outside dislocations, a fraction. */
  basis: number;
  /** Every venue's current quote; a venue that did not publish on this tick still holds its last one. */
  quotes: Record<VenueId, BidAsk>;
  /** The venues that published a new quote on this tick. */
  updated: readonly VenueId[];
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

export interface VenueState {
  /** The venue's view of the latent price: delayed, and smoothed for an index feed. */
  seen: number;
  quote: BidAsk;
}

export interface SymbolState {
  latent: number;
  /** Recent latent prices, newest last, long enough for the laggiest venue. */
  history: number[];
  basis: number;
  dislocation: number;
  widenTarget: number;
  widenTicksLeft: number;
  decayPerTick: number;
  venues: Record<VenueId, VenueState>;
}

export interface SimState {
  readonly rng: Rng;
  tick: number;
  readonly symbols: Record<SymbolId, SymbolState>;
}

export function createSimState(seed: number, params: SimParams): SimState {
  const rng = createRng(seed);
  const maxLag = Math.max(...VENUES.map((v) => ticksOf(params.venues[v].lagMs, params.tickMs)));
  const symbolState = (symbol: SymbolId): SymbolState => {
    const [low, high] = symbolParams(params, symbol).priceRange;
    const latent = rng.between(low, high);
    const venue = (): VenueState => ({ seen: latent, quote: { bid: latent, ask: latent } });
    const { mean, sd } = params.basis;
    return {
      latent,
      history: Array.from({ length: maxLag + 1 }, () => latent),
      // Started from its stationary distribution, so the first minutes look like any others.
      basis: sd > 0 ? mean + sd * rng.normal() : mean,
      dislocation: 0,
      widenTarget: 0,
      widenTicksLeft: 0,
      decayPerTick: 1,
      venues: { binance: venue(), deriv: venue() },
    };
  };
  // One pair after another in the parameters' order, so a seed draws the same prices for the same pairs.
  const symbols: Record<SymbolId, SymbolState> = {};
  for (const symbol of modelledSymbols(params)) symbols[symbol] = symbolState(symbol);
  return { rng, tick: -1, symbols };
}

/** One modelled pair's state; throws for a pair the market does not model (callers iterate the modelled ones). */
export function stateOf(state: SimState, symbol: SymbolId): SymbolState {
  const s = state.symbols[symbol];
  if (!s) throw new Error(`The simulated market does not model ${symbol}`);
  return s;
}

/** A copy of one symbol's state: what a restart needs to continue its price path (sim_market table). */
export function symbolSnapshot(state: SimState, symbol: SymbolId): SymbolState {
  return structuredClone(stateOf(state, symbol));
}

/**
 * Continues a symbol from a saved state: its latent price, the lagged history the venues follow, basis, dislocation
 * and each venue's last quote. The history is fitted to the current parameters' longest lag (a changed profile).
 */
export function restoreSymbol(state: SimState, symbol: SymbolId, saved: SymbolState): void {
  const target = stateOf(state, symbol);
  const length = target.history.length;
  const history = saved.history.slice(-length);
  while (history.length < length) history.unshift(history[0] ?? saved.latent);
  state.symbols[symbol] = { ...structuredClone(saved), history };
}

const round = (value: number, decimals: number): number => {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
};

/** A book around `mid`, rounded to the symbol's decimals and never narrower than one step of the last one. */
function book(mid: number, halfSpread: number, decimals: number): BidAsk {
  const bid = round(mid * (1 - halfSpread), decimals);
  const ask = round(mid * (1 + halfSpread), decimals);
  const step = 10 ** -decimals;
  return { bid, ask: ask - bid < step / 2 ? round(bid + step, decimals) : ask };
}

/** Advances the state by one tick (mutating it, for speed) and returns every venue's quote for every symbol. */
export function stepSim(state: SimState, params: SimParams): SimTick {
  state.tick += 1;
  const dtSeconds = params.tickMs / 1000;
  const started: DislocationEvent[] = [];
  const symbols: Record<SymbolId, SymbolTick> = {};
  for (const symbol of modelledSymbols(params)) {
    const s = stateOf(state, symbol);
    const p = symbolParams(params, symbol);
    if (state.tick > 0) {
      const sigma = p.annualVolatility * Math.sqrt(dtSeconds / secondsPerYear);
      s.latent *= Math.exp(-0.5 * sigma * sigma + sigma * state.rng.normal());
      s.history.push(s.latent);
      s.history.shift();
      advanceBasis(state.rng, s, params.basis, dtSeconds);
      const event = advanceDislocation(state.rng, s, params.dislocation, dtSeconds, params.tickMs);
      if (event) started.push({ tick: state.tick, symbol, ...event });
    }
    const updated: VenueId[] = [];
    for (const venue of VENUES) {
      const v = params.venues[venue];
      const vs = s.venues[venue];
      follow(vs, s.history, v, params.tickMs);
      if (state.tick % ticksOf(v.updateMs, params.tickMs, 1) !== 0) continue;
      const gap = venue === 'deriv' ? s.basis + s.dislocation : 0;
      vs.quote = book(vs.seen * (1 + gap) * (1 + v.noise * state.rng.normal()), v.halfSpread, p.decimals);
      updated.push(venue);
    }
    symbols[symbol] = {
      latent: s.latent,
      dislocation: s.dislocation,
      basis: s.basis,
      quotes: { binance: s.venues.binance.quote, deriv: s.venues.deriv.quote },
      updated,
    };
  }
  return { tick: state.tick, symbols, started };
}

/** The venue's view moves to the delayed latent price, at once or through its smoothing. */
function follow(vs: VenueState, history: readonly number[], v: VenueSimParams, tickMs: number): void {
  const lagged = history[history.length - 1 - ticksOf(v.lagMs, tickMs)] ?? history[history.length - 1]!;
  vs.seen = v.smoothingMs > 0 ? vs.seen + (lagged - vs.seen) * (1 - Math.exp(-tickMs / v.smoothingMs)) : lagged;
}

/** One exact Ornstein–Uhlenbeck step; no draw at all when the basis is fixed (sd 0). */
function advanceBasis(rng: Rng, s: SymbolState, b: SimParams['basis'], dtSeconds: number): void {
  if (b.sd <= 0) return;
  const keep = Math.exp((-Math.LN2 * dtSeconds) / b.halfLifeSeconds);
  s.basis = b.mean + (s.basis - b.mean) * keep + b.sd * Math.sqrt(1 - keep * keep) * rng.normal();
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
