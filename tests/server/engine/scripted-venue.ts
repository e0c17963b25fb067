// A venue whose quotes the test pushes and whose next orders the test can make fail, over a real PaperBook.
// Execution is simple and exact: fills at the touch, 0.1 % fee on Binance, Deriv commission on open only.
import Decimal from 'decimal.js';
import { ReplaySubject, type Observable } from 'rxjs';
import type { Currency, SymbolId, VenueId } from '../../../contract/domain';
import { VenueError, type CloseOrder, type LegFill, type LegOrder, type PaperBook, type Quote, type Venue, type VenueAccount } from '../../../server/venues/types';

export type Fault = { kind: 'reject' } | { kind: 'unknown-after-fill' } | { kind: 'unknown-before-fill' } | { kind: 'hang'; release: Promise<void> };

export class ScriptedVenue implements Venue {
  private readonly streams = new Map<SymbolId, ReplaySubject<Quote>>();
  private readonly last = new Map<SymbolId, Quote>();
  readonly faults: Fault[] = [];
  readonly placed: string[] = [];

  constructor(
    readonly id: VenueId,
    private readonly book: PaperBook,
    /** Round trip of an order, ms (0: answers within the same turn of the event loop). */
    private readonly latencyMs = 0,
  ) {}

  push(symbol: SymbolId, mid: number, ts = Date.now()): void {
    const quote: Quote = { venue: this.id, symbol, bid: mid - 0.5, ask: mid + 0.5, ts };
    this.last.set(symbol, quote);
    this.stream(symbol).next(quote);
  }

  quotes(symbol: SymbolId): Observable<Quote> {
    return this.stream(symbol).asObservable();
  }

  async takerFeeRate(): Promise<string> {
    return this.id === 'binance' ? '0.001' : '0';
  }

  balances(account: VenueAccount): Promise<Record<Currency, string>> {
    return this.book.balances(account.userId, this.id);
  }

  openLeg(account: VenueAccount, order: LegOrder): Promise<LegFill> {
    return this.execute(account, order.symbol, order.clientOrderId, order.side, null, order.notional, true);
  }

  closeLeg(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    return this.execute(account, order.symbol, order.clientOrderId, order.side === 'buy' ? 'sell' : 'buy', order.quantity, null, false);
  }

  findOrder(account: VenueAccount, _symbol: SymbolId, clientOrderId: string): Promise<LegFill | null> {
    return this.book.findOrder(account.userId, this.id, clientOrderId);
  }

  async testConnection(): Promise<string> {
    return 'scripted';
  }

  async close(): Promise<void> {
    for (const s of this.streams.values()) s.complete();
  }

  private stream(symbol: SymbolId): ReplaySubject<Quote> {
    let s = this.streams.get(symbol);
    if (!s) this.streams.set(symbol, (s = new ReplaySubject<Quote>(1)));
    return s;
  }

  private async execute(account: VenueAccount, symbol: SymbolId, clientOrderId: string, side: 'buy' | 'sell', quantity: string | null, notional: string | null, opening: boolean): Promise<LegFill> {
    this.placed.push(clientOrderId);
    const fault = this.faults.shift();
    if (fault?.kind === 'reject') throw new VenueError(this.id, 'rejected', 'scripted refusal');
    if (fault?.kind === 'unknown-before-fill') throw new VenueError(this.id, 'unknown-outcome', 'scripted 502');
    if (fault?.kind === 'hang') await fault.release;
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    const quote = this.last.get(symbol);
    if (!quote) throw new VenueError(this.id, 'unavailable', 'no quote');
    const price = new Decimal(side === 'buy' ? quote.ask : quote.bid);
    const qty = quantity ? new Decimal(quantity) : new Decimal(notional as string).dividedBy(price).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    const amount = price.times(qty);
    const fee = this.id === 'binance' ? amount.times('0.001').toDecimalPlaces(8) : opening ? amount.times('0.0003').toDecimalPlaces(8) : new Decimal(0);
    const coin: Currency = symbol === 'BTC/USDT' ? 'BTC' : 'ETH';
    // Binance moves the coin; Deriv is margin in USDT: the stake (a tenth) goes out on open and comes back with PnL.
    const deltas: Partial<Record<Currency, string>> =
      this.id === 'binance'
        ? side === 'buy'
          ? { USDT: amount.plus(fee).negated().toFixed(), [coin]: qty.toFixed() }
          : { USDT: amount.minus(fee).toFixed(), [coin]: qty.negated().toFixed() }
        : { USDT: opening ? amount.dividedBy(10).plus(fee).negated().toDecimalPlaces(8).toFixed() : amount.dividedBy(10).toDecimalPlaces(8).toFixed() };
    const fill: LegFill = { clientOrderId, venueOrderId: `s:${clientOrderId}`, price: price.toFixed(), quantity: qty.toFixed(), fee: fee.toFixed(), at: quote.ts };
    const recorded = await this.book.recordFill(account.userId, this.id, symbol, fill, deltas);
    if (fault?.kind === 'unknown-after-fill') throw new VenueError(this.id, 'unknown-outcome', 'scripted 502 after the fill');
    return recorded;
  }
}
