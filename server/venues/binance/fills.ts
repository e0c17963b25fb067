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

export function toLegFill(symbol: SymbolId, order: RawOrder, fills: RawFill[], takerRate: string): LegFill {
  const quantity = new Decimal(order.executedQty);
  if (quantity.lte(0)) throw new VenueError('binance', 'rejected', `Binance did not fill order ${order.clientOrderId} (status ${order.status})`);
  const price = new Decimal(order.cummulativeQuoteQty).dividedBy(quantity).toDecimalPlaces(8, Decimal.ROUND_HALF_UP);
  return {
    clientOrderId: order.clientOrderId,
    venueOrderId: String(order.orderId),
    price: price.toFixed(),
    quantity: quantity.toFixed(),
    fee: commissionInUsdt(symbol, fills, takerRate).toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toFixed(),
    at: order.transactTime ?? order.updateTime ?? order.time ?? Date.now(),
  };
}
