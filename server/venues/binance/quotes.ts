// Binance best bid/ask for our symbols from the bookTicker stream (ccxt watchBidsAsks), as one shared Observable
// that survives dropped connections: each failure waits a backoff delay, then watches again (ccxt reconnects and
// resubscribes on the next watch).
import { Observable, share } from 'rxjs';
import type { Ticker } from 'ccxt';
import { enabledSymbols } from '../enabled-pairs';
import { backoffDelay, DEFAULT_BACKOFF, sleep, type BackoffOptions } from '../backoff';
import type { LinkHealth } from '../health';
import type { Quote } from '../types';
import type { BinanceExchange } from './exchange';

export interface QuoteStreamOptions {
  backoff?: BackoffOptions;
  /** Told about each failure before the next attempt (logging). */
  onError?: (error: unknown, attempt: number) => void;
  /** Where the stream's connection state is written: connected while watches answer, down with the error that broke it. */
  health?: LinkHealth;
}

/** `exchange` resolves null once the venue is closed, which completes the stream. */
export function binanceQuoteStream(
  exchange: () => Promise<BinanceExchange | null>,
  options: QuoteStreamOptions = {},
): Observable<Quote> {
  const symbols = [...enabledSymbols()];
  return new Observable<Quote>((subscriber) => {
    let stopped = false;
    // Last bid/ask sent per symbol: ccxt resolves one watch per message, and a message that lands before the next
    // watch is armed only reaches its cache, so every round reads the whole cache and sends what changed.
    const sent = new Map<string, string>();
    const run = async (): Promise<void> => {
      let attempt = 0;
      options.health?.connecting();
      while (!stopped) {
        try {
          const client = await exchange();
          if (!client) {
            subscriber.complete();
            return;
          }
          const updates = await client.watchBidsAsks(symbols);
          attempt = 0;
          options.health?.connected();
          const cache = (client as unknown as { bidsasks?: Record<string, Ticker> }).bidsasks ?? updates;
          for (const symbol of symbols) {
            const ticker = cache[symbol] ?? updates[symbol];
            if (stopped || !ticker || ticker.bid === undefined || ticker.ask === undefined) continue;
            const fingerprint = `${ticker.bid}|${ticker.ask}|${String((ticker.info as { u?: unknown } | undefined)?.u)}`;
            if (sent.get(symbol) === fingerprint) continue;
            sent.set(symbol, fingerprint);
            // bookTicker carries no time of its own: stamp it on arrival.
            subscriber.next({
              venue: 'binance',
              symbol,
              bid: ticker.bid,
              ask: ticker.ask,
              ts: ticker.timestamp ?? Date.now(),
            });
          }
        } catch (error) {
          if (stopped) return;
          options.health?.disconnected(error);
          options.onError?.(error, attempt);
          await sleep(backoffDelay(attempt, options.backoff ?? DEFAULT_BACKOFF));
          attempt += 1;
        }
      }
    };
    void run();
    return () => {
      stopped = true;
    };
  }).pipe(share());
}
