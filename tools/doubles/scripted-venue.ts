// A venue whose quotes the test pushes and whose next orders the test can make fail, over a real PaperBook.
// Execution is simple and exact: fills at the touch, 0.1 % fee on Binance, Deriv commission on open only.
import Decimal from 'decimal.js';
import { ReplaySubject, Subject, type Observable } from 'rxjs';
import type { Currency, SymbolId, VenueId } from '../../contract/domain';
import {
  VenueError,
  type CloseOrder,
  type LegFill,
  type LegOrder,
  type PaperBook,
  type PositionClosed,
  type Quote,
  type TradeRules,
  type Venue,
  type VenueAccount,
} from '../../server/venues/types';

export type Fault =
  | { kind: 'reject' }
  | { kind: 'insufficient' }
  | { kind: 'unknown-after-fill' }
  | { kind: 'unknown-before-fill' }
  | { kind: 'hang'; release: Promise<void> };

/** Limits wide enough never to refuse a test's orders; a test narrows them. */
export const OPEN_RULES: TradeRules = {
  currency: 'USDT',
  minNotional: null,
  maxNotional: null,
  stepSize: null,
  minQuantity: null,
  multiplier: 10,
  minStake: null,
  maxStake: null,
  feeRate: '0.001',
};

export class ScriptedVenue implements Venue {
  private readonly streams = new Map<SymbolId, ReplaySubject<Quote>>();
  private readonly last = new Map<SymbolId, Quote>();
  readonly faults: Fault[] = [];
  /** A fault for every order from now on (a venue that refuses everything), until set back to null. */
  always: Fault | null = null;
  readonly placed: string[] = [];
  rules: TradeRules = OPEN_RULES;
  /** Positions opened here, by venue order id, so a test can stop one out. */
  private readonly opened = new Map<
    string,
    { account: VenueAccount; symbol: SymbolId; side: 'buy' | 'sell'; fill: LegFill }
  >();
  private readonly watchers = new Map<string, Subject<PositionClosed>>();

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

  async tradeRules(): Promise<TradeRules> {
    return this.rules;
  }

  balances(account: VenueAccount): Promise<Record<Currency, string>> {
    return this.book.balances(account.userId, this.id);
  }

  async openLeg(account: VenueAccount, order: LegOrder): Promise<LegFill> {
    const fill = await this.execute(
      account,
      order.symbol,
      order.clientOrderId,
      order.side,
      null,
      order.notional,
      true,
      order.protection,
    );
    this.opened.set(fill.venueOrderId, { account, symbol: order.symbol, side: order.side, fill });
    return fill;
  }

  /** Emits when the test stops the position out (stopOut). */
  watchPosition(_account: VenueAccount, _symbol: SymbolId, venueOrderId: string): Observable<PositionClosed> {
    let watcher = this.watchers.get(venueOrderId);
    if (!watcher) this.watchers.set(venueOrderId, (watcher = new Subject<PositionClosed>()));
    return watcher.asObservable();
  }

  /** The venue closes an open position by itself at the current quote, as a stop-out does; resolves with the fill. */
  async stopOut(venueOrderId: string): Promise<LegFill> {
    const position = this.opened.get(venueOrderId);
    if (!position) throw new Error(`No position ${venueOrderId}`);
    const { account, symbol, side, fill } = position;
    const close = await this.execute(
      account,
      symbol,
      `${fill.clientOrderId}-c`,
      side === 'buy' ? 'sell' : 'buy',
      fill.quantity,
      null,
      false,
    );
    this.watchers.get(venueOrderId)?.next({ fill: { ...close, venueOrderId }, reason: 'stopped out by the venue' });
    return close;
  }

  /** Venue order ids of the positions opened here. */
  positions(): string[] {
    return [...this.opened.keys()];
  }

  closeLeg(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    return this.execute(
      account,
      order.symbol,
      order.clientOrderId,
      order.side === 'buy' ? 'sell' : 'buy',
      order.quantity,
      null,
      false,
    );
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

  private async execute(
    account: VenueAccount,
    symbol: SymbolId,
    clientOrderId: string,
    side: 'buy' | 'sell',
    quantity: string | null,
    notional: string | null,
    opening: boolean,
    protection?: LegOrder['protection'],
  ): Promise<LegFill> {
    this.placed.push(clientOrderId);
    const fault = this.faults.shift() ?? (opening ? this.always : null) ?? undefined;
    if (fault?.kind === 'reject') throw new VenueError(this.id, 'rejected', 'scripted refusal');
    if (fault?.kind === 'insufficient')
      throw new VenueError(this.id, 'insufficient-balance', 'Account has insufficient balance for requested action.');
    if (fault?.kind === 'unknown-before-fill') throw new VenueError(this.id, 'unknown-outcome', 'scripted 502');
    if (fault?.kind === 'hang') await fault.release;
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    const quote = this.last.get(symbol);
    if (!quote) throw new VenueError(this.id, 'unavailable', 'no quote');
    const price = new Decimal(side === 'buy' ? quote.ask : quote.bid);
    if (protection) {
      const limit = new Decimal(protection.price).times(
        side === 'buy' ? 1 + protection.maxSlippage : 1 - protection.maxSlippage,
      );
      if (side === 'buy' ? price.gt(limit) : price.lt(limit))
        throw new VenueError(this.id, 'rejected', `price moved beyond the limit ${limit.toFixed()}`);
    }
    const qty = quantity
      ? new Decimal(quantity)
      : new Decimal(notional as string).dividedBy(price).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    const amount = price.times(qty);
    const fee =
      this.id === 'binance'
        ? amount.times('0.001').toDecimalPlaces(8)
        : opening
          ? amount.times('0.0003').toDecimalPlaces(8)
          : new Decimal(0);
    const coin: Currency = symbol === 'BTC/USDT' ? 'BTC' : 'ETH';
    // Binance moves the coin; Deriv is margin in USDT: the stake (a tenth) goes out on open and comes back with PnL.
    const deltas: Partial<Record<Currency, string>> =
      this.id === 'binance'
        ? side === 'buy'
          ? { USDT: amount.plus(fee).negated().toFixed(), [coin]: qty.toFixed() }
          : { USDT: amount.minus(fee).toFixed(), [coin]: qty.negated().toFixed() }
        : {
            USDT: opening
              ? amount.dividedBy(10).plus(fee).negated().toDecimalPlaces(8).toFixed()
              : amount.dividedBy(10).toDecimalPlaces(8).toFixed(),
          };
    const fill: LegFill = {
      clientOrderId,
      venueOrderId: `s:${clientOrderId}`,
      price: price.toFixed(),
      quantity: qty.toFixed(),
      fee: fee.toFixed(),
      at: quote.ts,
    };
    const recorded = await this.book.recordFill(account.userId, this.id, symbol, fill, deltas);
    if (fault?.kind === 'unknown-after-fill')
      throw new VenueError(this.id, 'unknown-outcome', 'scripted 502 after the fill');
    return recorded;
  }
}
