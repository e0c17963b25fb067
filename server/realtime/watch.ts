// Per-pair price rooms: a connection starts in every pair's room (what the spec's client expects) and may narrow it to
// the pairs its screen shows with `watch_pairs`, so a phone on the trades list hears no prices at all and one on the
// Dashboard hears the pairs it lists. With the Redis adapter rooms span instances, so nothing else changes.
import { z } from 'zod';
import { CLIENT_EVENTS } from '../../contract';
import type { WatchAck } from '../../contract';
import { isKnownSymbol, PAIR_CATALOGUE, type SymbolId } from '../../contract/pairs';
import type { RealtimeLogger, RealtimeSocket } from './types';

/** The room of one pair's `priceUpdate`s. */
export const pricesRoom = (symbol: SymbolId): string => `prices:${symbol}`;

const ALL_PRICE_ROOMS: readonly string[] = PAIR_CATALOGUE.map((p) => pricesRoom(p.symbol));

/** null (every pair) or a list of the catalogue's pairs; anything else is refused with the reason. */
const WatchRequest = z.union([
  z.null(),
  z
    .array(z.string().max(32))
    .max(PAIR_CATALOGUE.length)
    .refine((pairs) => pairs.every(isKnownSymbol), { message: 'Unknown pair' }),
]);

/** Socket.IO hands over whatever the client sent: the ack may be missing or not a function at all. */
function reply(ack: unknown, result: WatchAck): void {
  if (typeof ack === 'function') (ack as (result: WatchAck) => void)(result);
}

/** The rooms for a request: every pair's for null. */
export function priceRoomsFor(pairs: readonly SymbolId[] | null): string[] {
  return pairs === null ? [...ALL_PRICE_ROOMS] : [...new Set(pairs)].map(pricesRoom);
}

export function joinEveryPriceRoom(socket: RealtimeSocket): void {
  void socket.join(priceRoomsFor(null));
}

export function registerWatchHandlers(socket: RealtimeSocket, logger: RealtimeLogger): void {
  socket.on(CLIENT_EVENTS.watchPairs, (pairs: unknown, ack?: unknown) => {
    const parsed = WatchRequest.safeParse(pairs);
    if (!parsed.success) {
      logger.warn({ userId: socket.data.user.id }, 'realtime: watch_pairs refused');
      reply(ack, { ok: false, message: 'Pairs must be a list of known pairs, or null for every pair' });
      return;
    }
    const wanted = parsed.data as SymbolId[] | null;
    const rooms = new Set(priceRoomsFor(wanted));
    for (const room of ALL_PRICE_ROOMS) if (!rooms.has(room)) void socket.leave(room);
    void Promise.resolve(socket.join([...rooms])).then(() => reply(ack, { ok: true, pairs: wanted }));
  });
}
