// The venues as the engine trades on them, metered: every call's round-trip time, and for orders whether the venue
// filled or refused them and why (the VenueError kind, a fixed set). A Proxy passes everything it does not meter
// through untouched, so a method a venue gains later (or an optional one it lacks) behaves exactly as before.
import type { VenueId } from '../../../contract/domain';
import { VenueError, type Venue } from '../../venues/types';
import type { MetricFamilies } from './families';

/** Venue methods that make a call to the venue, with their operation label. */
const OPERATIONS: Partial<Record<keyof Venue, string>> = {
  openLeg: 'open_order',
  closeLeg: 'close_order',
  findOrder: 'find_order',
  balances: 'balances',
  takerFeeRate: 'taker_fee',
  tradeRules: 'trade_rules',
  openPositions: 'open_positions',
  testConnection: 'test_connection',
};

const ORDERS: Partial<Record<keyof Venue, 'open' | 'close'>> = { openLeg: 'open', closeLeg: 'close' };

/** The VenueError kind with underscores, or `other` for anything that is not a VenueError. */
export function failureReason(error: unknown): string {
  return error instanceof VenueError ? error.kind.replace(/-/g, '_') : 'other';
}

export function meterVenue(venue: Venue, m: MetricFamilies): Venue {
  const id: VenueId = venue.id;
  return new Proxy(venue, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      const operation = OPERATIONS[property as keyof Venue];
      if (!operation || typeof value !== 'function') return value;
      const order = ORDERS[property as keyof Venue];
      return async (...args: unknown[]) => {
        const stop = m.venueRequests.startTimer({ venue: id, operation });
        try {
          const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (order) m.venueOrders.inc({ venue: id, operation: order, outcome: 'filled' });
          return result;
        } catch (error) {
          const reason = failureReason(error);
          if (order) {
            m.venueOrders.inc({ venue: id, operation: order, outcome: 'refused' });
            m.venueRefusals.inc({ venue: id, operation: order, reason });
          } else m.venueRequestErrors.inc({ venue: id, operation, reason });
          throw error;
        } finally {
          stop();
        }
      };
    },
  });
}

export function meterVenues<T extends Record<VenueId, Venue>>(venues: T, m: MetricFamilies): T {
  return { ...venues, binance: meterVenue(venues.binance, m), deriv: meterVenue(venues.deriv, m) };
}
