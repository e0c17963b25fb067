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
 * What it received is rarely on the lot step (the commission is a fraction of it), and a sell can only be a whole
 * number of steps: the position is what the close can sell, a whole number of steps. The rest (less than one step)
 * stays on the account as the user's coin, outside the trade, so its cost is never booked as a loss while it is held.
 * It is carried into the next buy of that coin: given the account's coin after the fill (`heldAfter`), the position is
 * the whole steps the buy added to the account, which takes in one more step whenever what was left before and what
 * arrived now make one. So the coin left behind stays under one step, the user's own whole steps are never sold, and
 * a trade that takes the remainder in takes it at its opening price.
 */
export function toLegFill(
  symbol: SymbolId,
  order: RawOrder,
  fills: RawFill[],
  takerRate: string,
  role: 'open' | 'close',
  stepSize?: string | null,
  heldAfter?: string,
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
  const received = executed.minus(commissionInBase(symbol, fills));
  const held = role === 'open' && order.side === 'BUY' ? buyPosition(received, stepSize, heldAfter) : executed;
  return {
    clientOrderId: order.clientOrderId,
    venueOrderId: String(order.orderId),
    price: price.toFixed(),
    quantity: held.toFixed(),
    fee: commissionInUsdt(symbol, fills, takerRate).toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toFixed(),
    at: order.transactTime ?? order.updateTime ?? order.time ?? Date.now(),
  };
}

/**
 * What an opening buy holds: the whole steps it added to the account (`heldAfter` − `received` was there before), so
 * the remainder an earlier buy left is carried in once it makes a step with this one's. Never less than the whole
 * steps received nor more than one step beyond them (an account read that missed the fill cannot inflate it), and
 * never more than the account holds. Without the account's figure: the whole steps received.
 */
export function buyPosition(received: Decimal, stepSize: string | null | undefined, heldAfter?: string): Decimal {
  const own = onStep(received, stepSize);
  if (!stepSize || heldAfter === undefined) return own;
  const step = new Decimal(stepSize);
  const after = new Decimal(heldAfter);
  if (!after.isFinite() || step.lte(0)) return own;
  const added = onStep(after, stepSize).minus(onStep(Decimal.max(after.minus(received), 0), stepSize));
  return Decimal.max(own, Decimal.min(added, own.plus(step), onStep(after, stepSize)));
}

/** A quantity rounded down to a whole number of lot steps (unchanged without a step). */
function onStep(quantity: Decimal, stepSize: string | null | undefined): Decimal {
  if (!stepSize) return quantity;
  const step = new Decimal(stepSize);
  return step.gt(0) ? quantity.dividedToIntegerBy(step).times(step) : quantity;
}
