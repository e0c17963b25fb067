// A simulated venue: quotes from SimMarket, paper execution recorded in a PaperBook (idempotent on client order id).
import Decimal from 'decimal.js';
import { firstValueFrom, timer, type Observable } from 'rxjs';
import type { Currency, SymbolId, VenueId } from '../../../contract/domain';
import { pairSpec } from '../../../contract/pairs';
import {
  VenueError,
  type CloseOrder,
  type LegFill,
  type LegOrder,
  type PaperBook,
  type Quote,
  type TradeRules,
  type Venue,
  type VenueAccount,
} from '../types';
import { simulatedHealth, type VenueHealthSource } from '../health';
import { DEFAULT_EXECUTION_COSTS, paperClose, paperOpen, type ExecutionCosts, type PaperExecution } from './execution';
import { BookDepth, closingSide, consumingDepth, notionalAt, type DepthModel } from './depth';
import type { SimMarket } from './market';

export interface SimVenueOptions {
  /** Where quotes come from and fills take their price: the simulated market, or recorded quotes played back. */
  market: Pick<SimMarket, 'quotes' | 'latest' | 'now'>;
  paperBook: PaperBook;
  /** Delay between placing an order and its fill, as on a real venue; the fill takes the quote at the end of it. */
  latencyMs?: number;
  costs?: Partial<ExecutionCosts>;
  /** How orders meeting the same quote move its price together (depth.ts); the defaults when omitted. */
  depth?: DepthModel;
}

/** Paper venue order ids carry the opening client order id, so a close can find its opening fill after a restart. */
const PAPER_ID_PREFIX = 'paper:';

export class SimVenue implements Venue {
  private readonly market: SimVenueOptions['market'];
  private readonly book: PaperBook;
  private readonly latencyMs: number;
  readonly costs: ExecutionCosts;
  private readonly depth: BookDepth;
  /** No connection to measure: the simulated order delay (latencyMs) is a model input, not a measured round trip. */
  readonly health: VenueHealthSource;

  constructor(
    readonly id: VenueId,
    options: SimVenueOptions,
  ) {
    this.market = options.market;
    this.book = options.paperBook;
    this.latencyMs = options.latencyMs ?? 30;
    this.costs = { ...DEFAULT_EXECUTION_COSTS, ...options.costs };
    this.depth = new BookDepth(options.depth);
    this.health = simulatedHealth(id);
  }

  quotes(symbol: SymbolId): Observable<Quote> {
    return this.market.quotes(this.id, symbol);
  }

  async takerFeeRate(_account: VenueAccount): Promise<string> {
    // Deriv charges a commission per contract, reported on each fill, not a rate.
    return this.id === 'binance' ? String(this.costs.binanceTakerFee) : '0';
  }

  balances(account: VenueAccount): Promise<Record<Currency, string>> {
    return this.book.balances(account.userId, this.id);
  }

  /** The same figures the live venues state: Binance's filters and fee, Deriv's multiplier, stake bounds, commission. */
  async tradeRules(_account: VenueAccount, symbol: SymbolId): Promise<TradeRules> {
    return this.id === 'binance' ? simBinanceRules(symbol, this.costs) : simDerivRules(this.costs);
  }

  async openLeg(account: VenueAccount, order: LegOrder): Promise<LegFill> {
    const notional = parsePositive(this.id, order.notional, 'notional');
    const first = await this.book.findOrder(account.userId, this.id, order.clientOrderId);
    if (first) return first;
    await this.latency();
    const quote = this.market.latest(this.id, order.symbol);
    const execution = this.consuming(order.symbol, order.side, quote.ts, notional.toNumber(), (costs) =>
      paperOpen(
        this.id,
        { side: order.side, symbol: order.symbol, notional, protection: order.protection },
        quote,
        costs,
      ),
    );
    return this.record(
      account,
      order.symbol,
      order.clientOrderId,
      `${PAPER_ID_PREFIX}${order.clientOrderId}`,
      execution,
    );
  }

  async closeLeg(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    const quantity = parsePositive(this.id, order.quantity, 'quantity');
    const first = await this.book.findOrder(account.userId, this.id, order.clientOrderId);
    if (first) return first;
    if (this.id === 'binance') {
      await this.latency();
      const quote = this.market.latest(this.id, order.symbol);
      const execution = this.consuming(
        order.symbol,
        closingSide(order.side),
        quote.ts,
        notionalAt(quantity, quote),
        (c) => paperClose(this.id, { openSide: order.side, symbol: order.symbol, quantity }, quote, c),
      );
      return this.record(
        account,
        order.symbol,
        order.clientOrderId,
        `${PAPER_ID_PREFIX}${order.clientOrderId}`,
        execution,
      );
    }
    const opening = await this.openingFill(account, order);
    await this.latency();
    const quote = this.market.latest(this.id, order.symbol);
    const openingPrice = new Decimal(opening.price);
    const execution = this.consuming(
      order.symbol,
      closingSide(order.side),
      quote.ts,
      notionalAt(quantity, quote),
      (c) => paperClose(this.id, { openSide: order.side, symbol: order.symbol, quantity, openingPrice }, quote, c),
    );
    return this.record(account, order.symbol, order.clientOrderId, opening.venueOrderId, execution);
  }

  findOrder(account: VenueAccount, _symbol: SymbolId, clientOrderId: string): Promise<LegFill | null> {
    return this.book.findOrder(account.userId, this.id, clientOrderId);
  }

  async testConnection(_account: VenueAccount): Promise<string> {
    return `Simulated ${this.id}: paper trading, no credentials needed`;
  }

  async close(): Promise<void> {
    // The market belongs to whoever created it; nothing of the venue's own to release.
  }

  private async openingFill(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    const openId = order.venueOrderId?.startsWith(PAPER_ID_PREFIX)
      ? order.venueOrderId.slice(PAPER_ID_PREFIX.length)
      : null;
    const opening = openId ? await this.book.findOrder(account.userId, this.id, openId) : null;
    if (!opening)
      throw new VenueError(this.id, 'rejected', `No open contract ${order.venueOrderId ?? '(none given)'} to close`);
    return opening;
  }

  private record(
    account: VenueAccount,
    symbol: SymbolId,
    clientOrderId: string,
    venueOrderId: string,
    execution: PaperExecution,
  ): Promise<LegFill> {
    const fill: LegFill = {
      clientOrderId,
      venueOrderId,
      price: execution.price.toFixed(),
      quantity: execution.quantity.toFixed(),
      fee: execution.fee.toFixed(),
      at: this.market.now(),
    };
    return this.book.recordFill(account.userId, this.id, symbol, fill, execution.deltas);
  }

  private consuming(
    symbol: SymbolId,
    side: 'buy' | 'sell',
    quoteTs: number,
    notional: number,
    execute: (costs: ExecutionCosts) => PaperExecution,
  ): PaperExecution {
    return consumingDepth(this.depth, this.costs, { symbol, side, quoteTs, notional }, execute);
  }

  private async latency(): Promise<void> {
    if (this.latencyMs > 0) await firstValueFrom(timer(this.latencyMs));
  }
}

/** Binance spot's filters for the pair (exchangeInfo's NOTIONAL minimum and LOT_SIZE step) and the taker fee. */
export function simBinanceRules(symbol: SymbolId, costs: ExecutionCosts): TradeRules {
  const { lotStep: step, minNotional } = pairSpec(symbol);
  return {
    currency: 'USDT',
    minNotional,
    maxNotional: null,
    stepSize: step,
    minQuantity: step,
    multiplier: null,
    minStake: null,
    maxStake: null,
    feeRate: String(costs.binanceTakerFee),
  };
}

/** Deriv's multiplier contract as the paper venue prices it: stake bounds as Deriv states them for crypto. */
export function simDerivRules(costs: ExecutionCosts): TradeRules {
  return {
    currency: 'USD',
    minNotional: null,
    maxNotional: null,
    stepSize: null,
    minQuantity: null,
    multiplier: costs.derivMultiplier,
    minStake: '1',
    maxStake: '2000',
    feeRate: new Decimal(costs.derivCommissionOfStake).dividedBy(costs.derivMultiplier).toFixed(),
  };
}

function parsePositive(venue: VenueId, value: string, what: string): Decimal {
  let parsed: Decimal;
  try {
    parsed = new Decimal(value);
  } catch {
    throw new VenueError(venue, 'rejected', `Invalid ${what}: ${value}`);
  }
  if (!parsed.isFinite() || parsed.lte(0)) throw new VenueError(venue, 'rejected', `Invalid ${what}: ${value}`);
  return parsed;
}
