// The engine's prices: the latest tick of each symbol (the price book holdings are valued with), every tick as it
// arrives (a manual trade waits there for a pair of quotes it may trade on), and the `priceUpdate` and
// `arbitrage_opportunity` events. A venue that goes quiet sends nothing, so a price is published again once it
// turns stale. Beside the prices, each venue's connection health (state, round trip, last error) as it changes.
import { catchError, filter, firstValueFrom, merge, of, share, Subject, timeout, type Subscription } from 'rxjs';
import { VENUES, type SymbolId, type VenueId } from '../../contract/domain';
import type { VenueHealth } from '../../contract/venue-health';
import { enabledSymbols } from '../venues/enabled-pairs';
import type { Prices } from '../../contract/entities';
import { SERVER_EVENTS } from '../../contract/events';
import type { Venue } from '../venues/types';
import { openThreshold, type TradingParams } from './costs';
import type { EngineEvent } from './events';
import type { PriceBook } from './ports';
import { opportunityEdges, priceTicks, tickIsStale, toSymbolPrice, type PriceTick } from './prices';
import { checkQuotes } from './quote-check';

export interface PriceFeedDeps {
  venues: Record<VenueId, Venue>;
  params: TradingParams;
  now(): number;
  emit(event: EngineEvent): void;
}

export class PriceFeed implements PriceBook {
  private readonly latest = new Map<SymbolId, PriceTick>();
  private readonly ticks$ = new Subject<PriceTick>();
  /** Whether each symbol's last published price said stale, so a venue going quiet is published once. */
  private readonly publishedStale = new Map<SymbolId, boolean>();
  private subscriptions: Subscription[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: PriceFeedDeps) {}

  /** Subscribes to both venues' quotes; `onTick` hears each tick after it is recorded and published. */
  start(onTick: (tick: PriceTick) => void): void {
    const { params, now } = this.deps;
    const ticks = priceTicks(this.deps.venues, enabledSymbols()).pipe(share());
    // The broadcast opportunity uses the threshold of a user with the default minSpread and taker fee.
    const threshold = openThreshold(params, params.defaultMinSpread, params.defaultTakerFee);
    this.subscriptions.push(
      ticks.subscribe((tick) => {
        this.latest.set(tick.symbol, tick);
        this.ticks$.next(tick);
        this.publish(tick);
        onTick(tick);
      }),
      opportunityEdges(
        ticks.pipe(filter((tick) => checkQuotes(tick.binance, tick.deriv, now(), params).ok)),
        threshold,
      ).subscribe((opportunity) => this.deps.emit({ type: SERVER_EVENTS.arbitrageOpportunity, opportunity })),
      merge(...this.healthSources().map((source) => source.changes$)).subscribe((health) =>
        this.deps.emit({ type: SERVER_EVENTS.venueHealth, health }),
      ),
    );
    this.timer = setInterval(() => this.publishStaleness(), Math.min(500, params.quoteMaxAgeMs));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions = [];
  }

  /** Each venue's connection as its connector sees it now (venues that report none are left out). */
  venueHealth(): VenueHealth[] {
    return this.healthSources().map((source) => source.current());
  }

  private healthSources() {
    return VENUES.flatMap((venue) => {
      const source = this.deps.venues[venue].health;
      return source ? [source] : [];
    });
  }

  mid(symbol: SymbolId): number | null {
    const tick = this.latest.get(symbol);
    return tick?.binanceMid ?? tick?.derivMid ?? null;
  }

  latestTick(symbol: SymbolId): PriceTick | undefined {
    return this.latest.get(symbol);
  }

  /** The latest price of each symbol, `profitable` judged against the given minSpread, staleness as of now. */
  prices(minSpread: number, symbol?: SymbolId): Prices {
    const out: Prices = {};
    for (const s of symbol ? [symbol] : enabledSymbols()) {
      const tick = this.latest.get(s);
      if (tick) out[s] = toSymbolPrice(tick, minSpread, this.deps.now(), this.deps.params);
    }
    return out;
  }

  /**
   * The latest tick of a symbol if its two quotes may be traded on, else the next one that may, waiting at most the
   * quote freshness limit. Deriv quotes once a second and Binance many times, so at a random instant the pair is
   * often further apart than the skew limit; the next Deriv tick brings them together. Without a tradeable tick in
   * time the latest is returned and the usual check refuses it with its reason.
   */
  async tradeableTick(symbol: SymbolId): Promise<PriceTick | undefined> {
    const { now, params } = this.deps;
    const tradeable = (tick: PriceTick) => checkQuotes(tick.binance, tick.deriv, now(), params).ok;
    const latest = this.latest.get(symbol);
    if (latest && tradeable(latest)) return latest;
    return firstValueFrom(
      this.ticks$.pipe(
        filter((tick) => tick.symbol === symbol && tradeable(tick)),
        timeout({ first: params.quoteMaxAgeMs }),
        catchError(() => of(this.latest.get(symbol))),
      ),
    );
  }

  private publish(tick: PriceTick): void {
    const price = toSymbolPrice(tick, this.deps.params.defaultMinSpread, this.deps.now(), this.deps.params);
    this.publishedStale.set(tick.symbol, price.stale);
    this.deps.emit({ type: SERVER_EVENTS.priceUpdate, price });
  }

  private publishStaleness(): void {
    for (const [symbol, tick] of this.latest) {
      if (tickIsStale(tick, this.deps.now(), this.deps.params) !== this.publishedStale.get(symbol)) this.publish(tick);
    }
  }
}
