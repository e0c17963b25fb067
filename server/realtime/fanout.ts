// Engine events onto Socket.IO rooms: a user's own events to `user:<id>`, each pair's prices to the connections that
// watch it (watch.ts), the rest of the market data to every signed-in client.
// Prices are coalesced per symbol first; with the Redis adapter this runs on the engine's instance only, so the
// coalesced stream is what crosses Redis to the other instances.
import { connect, filter, map, merge } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import { SERVER_EVENTS, userRoom } from '../../contract';
import type { SymbolPrice } from '../../contract';
import type { EngineEvent } from '../engine/events';
import { coalesceLatestPerKey } from './coalesce';
import { SIGNED_IN_ROOM } from './types';
import { pricesRoom } from './watch';
import type { RealtimeLogger, RealtimeServer } from './types';

type PriceEvent = Extract<EngineEvent, { type: typeof SERVER_EVENTS.priceUpdate }>;
const isPrice = (event: EngineEvent): event is PriceEvent => event.type === SERVER_EVENTS.priceUpdate;

export function emitEngineEvent(io: RealtimeServer, event: EngineEvent): void {
  switch (event.type) {
    case SERVER_EVENTS.newTrade:
      io.to(userRoom(event.userId)).emit(SERVER_EVENTS.newTrade, event.trade);
      return;
    case SERVER_EVENTS.tradeUpdated:
      io.to(userRoom(event.userId)).emit(SERVER_EVENTS.tradeUpdated, event.trade);
      return;
    case SERVER_EVENTS.balanceUpdated:
      io.to(userRoom(event.userId)).emit(SERVER_EVENTS.balanceUpdated, event.balance);
      return;
    case SERVER_EVENTS.statsUpdated:
      io.to(userRoom(event.userId)).emit(SERVER_EVENTS.statsUpdated, event.stats);
      return;
    case SERVER_EVENTS.notice:
      io.to(userRoom(event.userId)).emit(SERVER_EVENTS.notice, event.notice);
      return;
    case SERVER_EVENTS.opportunityOutcome:
      io.to(userRoom(event.userId)).emit(SERVER_EVENTS.opportunityOutcome, event.outcome);
      return;
    case SERVER_EVENTS.priceUpdate:
      io.to(pricesRoom(event.price.symbol)).emit(SERVER_EVENTS.priceUpdate, event.price);
      return;
    case SERVER_EVENTS.arbitrageOpportunity:
      io.to(SIGNED_IN_ROOM).emit(SERVER_EVENTS.arbitrageOpportunity, event.opportunity);
      return;
    case SERVER_EVENTS.venueHealth:
      io.to(SIGNED_IN_ROOM).emit(SERVER_EVENTS.venueHealth, event.health);
      return;
  }
}

/** The engine's stream with price updates thinned to at most one per symbol per `pricePeriodMs` (latest kept). */
export function coalescedEngineEvents(
  events$: Observable<EngineEvent>,
  pricePeriodMs: number,
): Observable<EngineEvent> {
  return events$.pipe(
    connect((shared) =>
      merge(
        shared.pipe(filter((event) => !isPrice(event))),
        shared.pipe(
          filter(isPrice),
          map((event) => event.price),
          coalesceLatestPerKey((price: SymbolPrice) => price.symbol, pricePeriodMs),
          map((price): EngineEvent => ({ type: SERVER_EVENTS.priceUpdate, price })),
        ),
      ),
    ),
  );
}

export function startFanout(
  io: RealtimeServer,
  events$: Observable<EngineEvent>,
  pricePeriodMs: number,
  logger: RealtimeLogger,
): Subscription {
  return coalescedEngineEvents(events$, pricePeriodMs).subscribe({
    next: (event) => {
      try {
        emitEngineEvent(io, event);
      } catch (error) {
        logger.error({ err: error, type: event.type }, 'realtime: emit failed');
      }
    },
    error: (error: unknown) => logger.error({ err: error }, 'realtime: engine event stream failed; fan-out stopped'),
  });
}
