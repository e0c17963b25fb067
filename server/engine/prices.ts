// Quotes → spread → price snapshots and opportunity edges. Pure functions plus the RxJS pipeline that applies them.
import type { Observable } from 'rxjs';
import { combineLatest, filter, map, merge, retry, scan, startWith } from 'rxjs';
import type { SymbolId } from '../../contract/domain';
import type { ArbitrageOpportunity, SymbolPrice } from '../../contract/entities';
import { isPriceProfitable } from '../../contract/rules';
import type { Quote, Venue } from '../venues/types';
import { ageOf, isStale, type QuoteLimits } from './quote-check';

/** One symbol's latest state across both venues. */
export interface PriceTick {
  symbol: SymbolId;
  binance: Quote | null;
  deriv: Quote | null;
  binanceMid: number | null;
  derivMid: number | null;
  /** (deriv mid − binance mid) / binance mid, a fraction; null until both venues quoted. */
  spread: number | null;
  /** ms since epoch: the later of the two quotes. */
  at: number;
}

/** Rounded to 1e-8 so that binary-float noise (61793.520000000004) never reaches a screen or the wire. */
export const midOf = (quote: Quote): number => Math.round(((quote.bid + quote.ask) / 2) * 1e8) / 1e8;

export function spreadOf(binanceMid: number, derivMid: number): number {
  return (derivMid - binanceMid) / binanceMid;
}

export function toPriceTick(symbol: SymbolId, binance: Quote | null, deriv: Quote | null): PriceTick {
  const binanceMid = binance ? midOf(binance) : null;
  const derivMid = deriv ? midOf(deriv) : null;
  const spread = binanceMid !== null && derivMid !== null && binanceMid > 0 ? spreadOf(binanceMid, derivMid) : null;
  return { symbol, binance, deriv, binanceMid, derivMid, spread, at: Math.max(binance?.ts ?? 0, deriv?.ts ?? 0) };
}

/** Either venue's quote is missing or older than the freshness limit at `now`. */
export const tickIsStale = (tick: PriceTick, now: number, limits: QuoteLimits): boolean =>
  isStale(tick.binance, now, limits) || isStale(tick.deriv, now, limits);

/**
 * The wire form at `now`: stale when a venue's quote is missing or too old, and `profitable` judged against the given
 * threshold (the caller's minSpread or the default), never while stale.
 */
export function toSymbolPrice(tick: PriceTick, minSpread: number, now: number, limits: QuoteLimits): SymbolPrice {
  const stale = tickIsStale(tick, now, limits);
  return {
    symbol: tick.symbol,
    binance: tick.binanceMid,
    deriv: tick.derivMid,
    spread: tick.spread,
    arbitrage: { profitable: isPriceProfitable({ spread: tick.spread, stale }, minSpread) },
    timestamp: new Date(tick.at || now).toISOString(),
    stale,
    ageMs: { binance: ageOf(tick.binance, now), deriv: ageOf(tick.deriv, now) },
  };
}

export type Direction = ArbitrageOpportunity['direction'];
export const directionOf = (spread: number): Direction => (spread >= 0 ? 'deriv-rich' : 'binance-rich');

export interface EdgeState {
  /** The direction of the opportunity currently above the threshold, or null when none is. */
  active: Direction | null;
  /** Set only on the tick where an opportunity appears (or flips direction): the event to send. */
  emit: ArbitrageOpportunity | null;
}

export const NO_EDGE: EdgeState = { active: null, emit: null };

/** Rising-edge detection: one event when |spread| first reaches the threshold, none while it stays there. */
export function nextEdge(prev: EdgeState, tick: PriceTick, threshold: number): EdgeState {
  if (tick.spread === null || tick.binanceMid === null || tick.derivMid === null)
    return { active: prev.active, emit: null };
  if (Math.abs(tick.spread) < threshold) return NO_EDGE;
  const direction = directionOf(tick.spread);
  if (prev.active === direction) return { active: direction, emit: null };
  return {
    active: direction,
    emit: {
      pair: tick.symbol,
      spread: tick.spread,
      binance: tick.binanceMid,
      deriv: tick.derivMid,
      direction,
      timestamp: new Date(tick.at || Date.now()).toISOString(),
    },
  };
}

export interface QuoteSources {
  binance: Pick<Venue, 'quotes'>;
  deriv: Pick<Venue, 'quotes'>;
}

/** Per symbol, the latest quotes of both venues combined; a tick as soon as either venue has quoted. */
export function priceTicks(venues: QuoteSources, symbols: readonly SymbolId[]): Observable<PriceTick> {
  return merge(
    ...symbols.map((symbol) =>
      combineLatest([
        // A venue stream that errors is subscribed again after a pause: prices must not stop for good.
        venues.binance.quotes(symbol).pipe(retry({ delay: 1000 }), startWith(null)),
        venues.deriv.quotes(symbol).pipe(retry({ delay: 1000 }), startWith(null)),
      ]).pipe(
        filter(([b, d]) => b !== null || d !== null),
        map(([b, d]) => toPriceTick(symbol, b, d)),
      ),
    ),
  );
}

/** Opportunity events on the rising edge, per symbol. */
export function opportunityEdges(ticks: Observable<PriceTick>, threshold: number): Observable<ArbitrageOpportunity> {
  return ticks.pipe(
    scan(
      (states, tick) => {
        const next = nextEdge(states.bySymbol.get(tick.symbol) ?? NO_EDGE, tick, threshold);
        states.bySymbol.set(tick.symbol, next);
        return { bySymbol: states.bySymbol, emit: next.emit };
      },
      { bySymbol: new Map<SymbolId, EdgeState>(), emit: null as ArbitrageOpportunity | null },
    ),
    map((s) => s.emit),
    filter((e): e is ArbitrageOpportunity => e !== null),
  );
}
