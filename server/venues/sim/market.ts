// The live simulated market: the model stepped on a clock, each venue publishing when the model says it quotes. The clock is an rxjs scheduler, so tests can drive it
// with a VirtualTimeScheduler (or call step()) instead of waiting for real time.
import type { Observable } from 'rxjs';
import { asyncScheduler, interval, ReplaySubject, type SchedulerLike, type Subscription } from 'rxjs';
import { VENUES, type SymbolId, type VenueId } from '../../../contract/domain';
import type { Quote } from '../types';
import {
  createSimState,
  restoreSymbol,
  stateOf,
  stepSim,
  symbolSnapshot,
  type SimState,
  type SimTick,
  type SymbolState,
} from './model';
import { DEFAULT_SIM_PARAMS, modelledSymbols, type SimParams } from './params';

/** What the market saved per symbol, so that a restart continues its price path instead of drawing a new one. */
export type SavedSimMarket = Partial<Record<SymbolId, SymbolState>>;

export interface SimMarketOptions {
  seed?: number;
  params?: SimParams;
  scheduler?: SchedulerLike;
  /** A saved state to continue from; the seed then draws only the moves from here on. */
  resume?: SavedSimMarket;
}

const key = (venue: VenueId, symbol: SymbolId): string => `${venue}|${symbol}`;

export class SimMarket {
  readonly params: SimParams;
  readonly seed: number;
  private readonly scheduler: SchedulerLike;
  private readonly state: SimState;
  private readonly latestQuotes = new Map<string, Quote>();
  private readonly subjects = new Map<string, ReplaySubject<Quote>>();
  private readonly tickSubject = new ReplaySubject<SimTick>(1);
  private clock: Subscription | null = null;
  /** The pairs this market models, in its order. */
  readonly symbols: readonly SymbolId[];

  constructor(options: SimMarketOptions = {}) {
    this.seed = options.seed ?? Date.now() % 2 ** 31;
    this.params = options.params ?? DEFAULT_SIM_PARAMS;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.symbols = modelledSymbols(this.params);
    this.state = createSimState(this.seed, this.params);
    if (options.resume) this.restore(options.resume);
    for (const venue of VENUES)
      for (const symbol of this.symbols) this.subjects.set(key(venue, symbol), new ReplaySubject<Quote>(1));
    // Quote at once, so the first subscriber and the first order never wait for the clock.
    this.step();
  }

  /** Starts the clock; idempotent. */
  start(): void {
    this.clock ??= interval(this.params.tickMs, this.scheduler).subscribe(() => this.step());
  }

  stop(): void {
    this.clock?.unsubscribe();
    this.clock = null;
  }

  /** Advances the market by one tick now and publishes the quotes. */
  step(): SimTick {
    const tick = stepSim(this.state, this.params);
    const ts = this.scheduler.now();
    for (const symbol of this.symbols) {
      // A venue quotes at its own rate (Deriv once a second, Binance every step); between quotes it says nothing.
      const symbolTick = tick.symbols[symbol];
      if (!symbolTick) continue;
      for (const venue of symbolTick.updated) {
        const { bid, ask } = symbolTick.quotes[venue];
        const quote: Quote = { venue, symbol, bid, ask, ts };
        this.latestQuotes.set(key(venue, symbol), quote);
        this.subjects.get(key(venue, symbol))?.next(quote);
      }
    }
    this.tickSubject.next(tick);
    return tick;
  }

  /** Every symbol's state now, for saving. */
  snapshot(): Record<SymbolId, SymbolState> {
    return Object.fromEntries(this.symbols.map((s) => [s, symbolSnapshot(this.state, s)]));
  }

  /**
   * Continues from a saved state (another instance's, after a failover) and publishes its last quotes at once, so
   * the next price anyone sees continues the saved path.
   */
  resume(saved: SavedSimMarket): void {
    this.restore(saved);
    const ts = this.scheduler.now();
    for (const symbol of this.symbols) {
      if (!saved[symbol]) continue;
      for (const venue of VENUES) {
        const { bid, ask } = stateOf(this.state, symbol).venues[venue].quote;
        const quote: Quote = { venue, symbol, bid, ask, ts };
        this.latestQuotes.set(key(venue, symbol), quote);
        this.subjects.get(key(venue, symbol))?.next(quote);
      }
    }
  }

  private restore(saved: SavedSimMarket): void {
    for (const symbol of this.symbols) {
      const symbolState = saved[symbol];
      if (symbolState) restoreSymbol(this.state, symbol, symbolState);
    }
  }

  /** Hot stream of one venue's quotes for a symbol; replays the latest to a new subscriber. */
  quotes(venue: VenueId, symbol: SymbolId): Observable<Quote> {
    const subject = this.subjects.get(key(venue, symbol));
    if (!subject) throw new Error(`Unknown market ${venue} ${symbol}`);
    return subject.asObservable();
  }

  /** Every tick with the model's internals (latent price, dislocation), for diagnostics and tests. */
  ticks(): Observable<SimTick> {
    return this.tickSubject.asObservable();
  }

  latest(venue: VenueId, symbol: SymbolId): Quote {
    const quote = this.latestQuotes.get(key(venue, symbol));
    if (!quote) throw new Error(`No quote yet for ${venue} ${symbol}`);
    return quote;
  }

  now(): number {
    return this.scheduler.now();
  }

  /** Stops the clock and completes every stream. */
  close(): void {
    this.stop();
    for (const subject of this.subjects.values()) subject.complete();
    this.tickSubject.complete();
  }
}
