// Paper execution arithmetic: what a fill costs and pays on each venue. Pure functions over decimals.
import { TRADING_COSTS } from '../../../contract/costs';
import Decimal from 'decimal.js';
import type { Currency, SymbolId, VenueId } from '../../../contract/domain';
import { baseOf } from '../../../contract/pairs';
import { VenueError, type PriceProtection } from '../types';

export interface ExecutionCosts {
  /** Price impact as a fraction: buys fill above the ask, sells below the bid. */
  slippage: number;
  /** Binance taker fee, a fraction of the quote amount. */
  binanceTakerFee: number;
  /** Deriv commission, a fraction of the stake. */
  derivCommissionOfStake: number;
  /** Deriv multiplier: stake × multiplier = notional. Low, because a hedge should not be stopped out. */
  derivMultiplier: number;
}

export const DEFAULT_EXECUTION_COSTS: ExecutionCosts = {
  slippage: 0.00005,
  binanceTakerFee: TRADING_COSTS.defaultTakerFee,
  derivCommissionOfStake: 0.003,
  derivMultiplier: 10,
};

export interface PaperExecution {
  price: Decimal;
  quantity: Decimal;
  fee: Decimal;
  deltas: Partial<Record<Currency, string>>;
}

const USDT_DP = 8;
const QTY_DP = 8;

export const baseCurrency = (symbol: SymbolId): Currency => baseOf(symbol);

/** The price a market order gets: the far side of the book plus slippage. */
export function fillPrice(side: 'buy' | 'sell', bid: number, ask: number, slippage: number): Decimal {
  const price = side === 'buy' ? new Decimal(ask).times(1 + slippage) : new Decimal(bid).times(1 - slippage);
  return price.toDecimalPlaces(8, Decimal.ROUND_HALF_UP);
}

const usdt = (value: Decimal): Decimal => value.toDecimalPlaces(USDT_DP, Decimal.ROUND_HALF_UP);

/** Spot order on Binance: buying moves USDT into the coin, selling the reverse; the fee is charged in USDT. */
export function binanceSpot(
  side: 'buy' | 'sell',
  symbol: SymbolId,
  price: Decimal,
  quantity: Decimal,
  costs: ExecutionCosts,
): PaperExecution {
  const quote = usdt(quantity.times(price));
  const fee = usdt(quote.times(costs.binanceTakerFee));
  const coin = baseCurrency(symbol);
  const deltas =
    side === 'buy'
      ? { USDT: quote.plus(fee).negated().toFixed(), [coin]: quantity.toFixed() }
      : { USDT: quote.minus(fee).toFixed(), [coin]: quantity.negated().toFixed() };
  return { price, quantity, fee, deltas };
}

export function quantityForNotional(notional: Decimal, price: Decimal): Decimal {
  return notional.dividedBy(price).toDecimalPlaces(QTY_DP, Decimal.ROUND_DOWN);
}

export function derivStake(quantity: Decimal, entryPrice: Decimal, costs: ExecutionCosts): Decimal {
  return usdt(quantity.times(entryPrice).dividedBy(costs.derivMultiplier));
}

/** Opening a Deriv multiplier: the stake and the commission leave the USDT balance. */
export function derivOpen(price: Decimal, quantity: Decimal, costs: ExecutionCosts): PaperExecution {
  const stake = derivStake(quantity, price, costs);
  const fee = usdt(stake.times(costs.derivCommissionOfStake));
  return { price, quantity, fee, deltas: { USDT: stake.plus(fee).negated().toFixed() } };
}

/**
 * The price at which a multiplier opened at `entryPrice` has lost its whole stake (Deriv's stop out), at the 8 decimals
 * of a fill price, rounded towards the entry so that a loss at that price never exceeds the stake.
 */
export function derivStopOutPrice(
  openSide: 'buy' | 'sell',
  entryPrice: Decimal,
  stake: Decimal,
  quantity: Decimal,
): Decimal {
  const distance = stake.dividedBy(quantity);
  return openSide === 'buy'
    ? entryPrice.minus(distance).toDecimalPlaces(8, Decimal.ROUND_CEIL)
    : entryPrice.plus(distance).toDecimalPlaces(8, Decimal.ROUND_FLOOR);
}

/**
 * Selling a Deriv multiplier back: the stake returns with the profit or loss of the move. A contract whose loss
 * reached its stake was stopped out: it closes at the stop-out price, not at the quote met later, so the fill says
 * what the payout paid and the trade's profit (price × quantity − fees, engine/profit.ts) equals what the balance
 * moved, stop out included.
 */
export function derivClose(
  openSide: 'buy' | 'sell',
  entryPrice: Decimal,
  exitPrice: Decimal,
  quantity: Decimal,
  costs: ExecutionCosts,
): PaperExecution {
  const stake = derivStake(quantity, entryPrice, costs);
  const stopOut = derivStopOutPrice(openSide, entryPrice, stake, quantity);
  const price = openSide === 'buy' ? Decimal.max(exitPrice, stopOut) : Decimal.min(exitPrice, stopOut);
  const direction = openSide === 'buy' ? 1 : -1;
  const pnl = price.minus(entryPrice).times(quantity).times(direction);
  const payout = usdt(Decimal.max(0, stake.plus(pnl)));
  return { price, quantity, fee: new Decimal(0), deltas: { USDT: payout.toFixed() } };
}

/** A venue's best bid and ask as an order meets them. */
export interface BookTop {
  bid: number;
  ask: number;
}

/** Price protection, as a limit order would apply it: a fill further than allowed from the decision is refused. */
export function refuseBeyondProtection(
  venue: VenueId,
  side: 'buy' | 'sell',
  price: Decimal,
  protection: PriceProtection,
): void {
  const limit = new Decimal(protection.price).times(
    side === 'buy' ? 1 + protection.maxSlippage : 1 - protection.maxSlippage,
  );
  if (side === 'buy' ? price.gt(limit) : price.lt(limit)) {
    throw new VenueError(
      venue,
      'rejected',
      `price moved beyond the limit: it would fill at ${price.toFixed()}, limit ${limit.toDecimalPlaces(8).toFixed()}`,
    );
  }
}

/**
 * An opening market order on a paper venue, filled at the quote it meets on arrival: price with slippage, price
 * protection, quantity for the notional, fees and balance moves. The simulated venue and the replay both fill here.
 */
export function paperOpen(
  venue: VenueId,
  order: { side: 'buy' | 'sell'; symbol: SymbolId; notional: Decimal; protection?: PriceProtection },
  quote: BookTop,
  costs: ExecutionCosts,
): PaperExecution {
  const price = fillPrice(order.side, quote.bid, quote.ask, costs.slippage);
  if (order.protection) refuseBeyondProtection(venue, order.side, price, order.protection);
  const quantity = quantityForNotional(order.notional, price);
  if (quantity.lte(0))
    throw new VenueError(venue, 'rejected', `Notional ${order.notional.toFixed()} is below one unit of quantity`);
  return venue === 'binance'
    ? binanceSpot(order.side, order.symbol, price, quantity, costs)
    : derivOpen(price, quantity, costs);
}

/**
 * Closing a leg opened on `openSide` at the quote met on arrival: a Binance spot order the other way, or selling the
 * Deriv contract back (its payout depends on the opening price).
 */
export function paperClose(
  venue: VenueId,
  order: { openSide: 'buy' | 'sell'; symbol: SymbolId; quantity: Decimal; openingPrice?: Decimal },
  quote: BookTop,
  costs: ExecutionCosts,
): PaperExecution {
  const closingSide = order.openSide === 'buy' ? 'sell' : 'buy';
  const price = fillPrice(closingSide, quote.bid, quote.ask, costs.slippage);
  if (venue === 'binance') return binanceSpot(closingSide, order.symbol, price, order.quantity, costs);
  if (!order.openingPrice) throw new VenueError(venue, 'rejected', 'No opening price for the contract to close');
  return derivClose(order.openSide, order.openingPrice, price, order.quantity, costs);
}
