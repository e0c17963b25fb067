// Turns Binance's raw order and trade payloads into a LegFill, with the commission converted to USDT.
import Decimal from 'decimal.js';
import type { SymbolId } from '../../../contract/domain';
import { VenueError, type LegFill } from '../types';

export interface RawFill {
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
}

export interface RawOrder {
  orderId: number | string;
  clientOrderId: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: string;
  side?: string;
  transactTime?: number;
  updateTime?: number;
  time?: number;
}

/**
 * Commission in USDT. A buyer pays in the coin received (valued at the fill price), a seller in USDT; an account
 * paying in another asset (BNB) is charged at the taker rate on the quote amount, which is what that discount
 * replaces.
 */
export function commissionInUsdt(symbol: SymbolId, fills: RawFill[], takerRate: string): Decimal {
  const [base, quote] = symbol.split('/');
  return fills.reduce((sum, fill) => {
    const commission = new Decimal(fill.commission);
    if (fill.commissionAsset === quote) return sum.plus(commission);
    if (fill.commissionAsset === base) return sum.plus(commission.times(fill.price));
    return sum.plus(new Decimal(fill.price).times(fill.qty).times(takerRate));
  }, new Decimal(0));
}

/** The coin a buyer paid as commission (VENUES.md: a buyer's commission is charged in the coin received). */
export function commissionInBase(symbol: SymbolId, fills: RawFill[]): Decimal {
  const [base] = symbol.split('/');
  return fills.filter((f) => f.commissionAsset === base).reduce((sum, f) => sum.plus(f.commission), new Decimal(0));
}

/**
 * The fill of an order. An opening buy holds what it received: the executed quantity less the commission taken in
 * the coin, while the commission's value is its fee. So the fee is counted once: the close sells exactly what is
 * held, and the profit (closing proceeds − cost − fees) does not charge the missing coins a second time.
 */
export function toLegFill(
  symbol: SymbolId,
  order: RawOrder,
  fills: RawFill[],
  takerRate: string,
  role: 'open' | 'close',
): LegFill {
  const executed = new Decimal(order.executedQty);
  if (executed.lte(0)) {
    const why =
      order.status === 'EXPIRED'
        ? "the price moved beyond the order's limit and it expired unfilled"
        : `status ${order.status}`;
    throw new VenueError('binance', 'rejected', `Binance did not fill order ${order.clientOrderId}: ${why}`);
  }
  const price = new Decimal(order.cummulativeQuoteQty).dividedBy(executed).toDecimalPlaces(8, Decimal.ROUND_HALF_UP);
  const held = role === 'open' && order.side === 'BUY' ? executed.minus(commissionInBase(symbol, fills)) : executed;
  return {
    clientOrderId: order.clientOrderId,
    venueOrderId: String(order.orderId),
    price: price.toFixed(),
    quantity: held.toFixed(),
    fee: commissionInUsdt(symbol, fills, takerRate).toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toFixed(),
    at: order.transactTime ?? order.updateTime ?? order.time ?? Date.now(),
  };
}
