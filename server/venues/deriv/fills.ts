// The fills a Deriv multiplier contract makes (its open and its sale), the price protection on a proposal, a tick's
// time, and the small memory of client order ids a connector keeps per account.
import Decimal from 'decimal.js';
import { VenueError, type LegFill, type LegOrder } from '../types';
import { quantityOf, type OpenContract } from './contracts';

/** The open of a multiplier: entry at its entry spot; the commission is its fee, charged once. */
export function openingFill(clientOrderId: string, contract: OpenContract): LegFill {
  return {
    clientOrderId,
    venueOrderId: String(contract.contract_id),
    price: new Decimal(contract.entry_spot ?? contract.current_spot ?? 0).toFixed(),
    quantity: quantityOf(contract, 1).toFixed(),
    fee: new Decimal(contract.commission ?? 0).toFixed(),
    at: (contract.purchase_time ?? contract.date_start ?? Date.now() / 1000) * 1000,
  };
}

/** The close of a multiplier: exit at the sell spot; the commission was charged once, at the open. */
export function closingFill(
  order: { clientOrderId: string; quantity: string | null },
  contract: OpenContract,
): LegFill {
  return {
    clientOrderId: order.clientOrderId,
    venueOrderId: String(contract.contract_id),
    price: exitPrice(contract),
    quantity: order.quantity ?? quantityOf(contract, 1).toFixed(),
    fee: '0',
    at: (contract.sell_time ?? Date.now() / 1000) * 1000,
  };
}

export const exitPrice = (contract: OpenContract): string =>
  new Decimal(contract.sell_spot ?? contract.exit_tick ?? contract.current_spot ?? 0).toFixed();

/**
 * A Deriv tick's time: its epoch has whole seconds, so the tick happened within the second after it; its arrival,
 * held inside that second, is the closest estimate (and never later than the venue says).
 */
export function tickTime(epoch: number | undefined, arrival: number = Date.now()): number {
  if (epoch === undefined) return arrival;
  return Math.max(epoch * 1000, Math.min(arrival, epoch * 1000 + 999));
}

/** Price protection on Deriv: the proposal's spot may not be worse than the decision's quote by more than allowed. */
export function refuseMovedSpot(
  side: 'buy' | 'sell',
  spot: number,
  protection: NonNullable<LegOrder['protection']>,
): void {
  const decided = new Decimal(protection.price);
  const limit = decided.times(side === 'buy' ? 1 + protection.maxSlippage : 1 - protection.maxSlippage);
  if (side === 'buy' ? new Decimal(spot).gt(limit) : new Decimal(spot).lt(limit)) {
    throw new VenueError(
      'deriv',
      'rejected',
      `Deriv's price moved: the proposal's spot is ${spot}, the decision's ${decided.toFixed()} (limit ${limit.toDecimalPlaces(8).toFixed()})`,
    );
  }
}

/** How many client order ids per account are remembered; older ones are found again through the contract itself. */
const REMEMBERED_ORDERS = 10_000;

/** Map insertion order is age: re-inserting refreshes an entry, and the oldest leaves once the map is full. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED_ORDERS) map.delete(map.keys().next().value as K);
}
