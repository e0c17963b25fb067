// Deriv's market data for everyone, from the new API's public socket (ws-public.md: no authentication, no app id):
// quotes from `ticks` and what Deriv offers per symbol from `contracts_for`, shared by every user of either API.
import { Observable, shareReplay } from 'rxjs';
import type { SymbolId } from '../../../contract/domain';
import type { BackoffOptions } from '../backoff';
import { LinkHealth } from '../health';
import { Kept } from '../kept';
import type { Quote } from '../types';
import { DerivClient, type Json } from './client';
import { toVenueError } from './errors';
import { tickTime } from './fills';
import { parseOffer, type Offer } from './offers';
import { NEW_API_SOCKET_LIMITS } from './session';
import { derivUnderlying } from './symbols';
import { num } from './wire';

export interface DerivPublicOptions {
  url: string;
  backoff?: BackoffOptions;
  pingIntervalMs?: number;
  requestTimeoutMs?: number;
  offerCacheMs?: number;
}

export class DerivPublic {
  private client: DerivClient | null = null;
  private readonly quoteStreams = new Map<SymbolId, Observable<Quote>>();
  private readonly offers: Kept<Offer>;
  /** Deriv as the Dashboard sees it: this socket carries every user's quotes, so its health is the venue's. */
  readonly health = new LinkHealth('deriv', "Deriv's ping over the market-data websocket");

  constructor(private readonly options: DerivPublicOptions) {
    this.offers = new Kept(options.offerCacheMs ?? 10 * 60_000);
  }

  quotes(symbol: SymbolId): Observable<Quote> {
    let stream = this.quoteStreams.get(symbol);
    if (!stream) {
      const underlying = derivUnderlying(symbol);
      stream = new Observable<Quote>((subscriber) => {
        const subscription = this.connection().subscribe({ ticks: underlying }, (message) => {
          const tick = (message['tick'] ?? {}) as Json;
          const bid = num(tick['bid']);
          const ask = num(tick['ask']);
          if (bid === undefined || ask === undefined) return;
          subscriber.next({ venue: 'deriv', symbol, bid, ask, ts: tickTime(num(tick['epoch'])) });
        });
        return () => subscription.unsubscribe();
      }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
      this.quoteStreams.set(symbol, stream);
    }
    return stream;
  }

  /** The multipliers Deriv offers for the symbol, kept for a while. */
  offer(symbol: SymbolId): Promise<Offer> {
    return this.offers.get(symbol, async () => {
      try {
        return parseOffer(await this.connection().request({ contracts_for: derivUnderlying(symbol) }));
      } catch (error) {
        throw toVenueError(error, 'read');
      }
    });
  }

  /** Deriv refused a multiplier it offered: the offer is read again before the next order. */
  forgetOffer(symbol: SymbolId): void {
    this.offers.forget(symbol);
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.close();
  }

  private connection(): DerivClient {
    this.client ??= new DerivClient({
      url: this.options.url,
      ...NEW_API_SOCKET_LIMITS,
      backoff: this.options.backoff,
      pingIntervalMs: this.options.pingIntervalMs,
      requestTimeoutMs: this.options.requestTimeoutMs,
      health: this.health,
    });
    return this.client;
  }
}
