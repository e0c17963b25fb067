import { Observable, of, type Subscription } from 'rxjs';
import type { Socket } from 'socket.io-client';
import { userRoom, type SymbolId } from '../../../contract/domain';
import { CLIENT_EVENTS, SERVER_EVENTS, type ServerToClientEvents } from '../../../contract/events';
import type { LinkSignal } from './retryPolicy';

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEvent = {
  [K in ServerEventName]: { name: K; payload: Parameters<ServerToClientEvents[K]>[0] };
}[ServerEventName];

/** Every event of the contract's name map is listened to. Both checks fail to compile when map and event types part. */
const EVENT_NAMES: readonly ServerEventName[] = Object.values(SERVER_EVENTS);
type Unlistened = Exclude<ServerEventName, (typeof SERVER_EVENTS)[keyof typeof SERVER_EVENTS]>;
const _everyEventListened: [Unlistened] extends [never] ? true : never = true;

/**
 * One Socket.IO connection attempt (spec section 7): token in the handshake, websocket then polling, 20 s timeout,
 * no built-in reconnection (our own policy retries). socket.io-client is loaded on demand so /login stays small.
 */
export function socketLink(
  session: { userId: string; token: string },
  origin: string = location.origin,
  watched$: Observable<SymbolId[] | null> = of(null),
): Observable<LinkSignal<ServerEvent>> {
  return new Observable<LinkSignal<ServerEvent>>((sub) => {
    let closed = false;
    let socket: Socket | null = null;
    let watching: Subscription | null = null;
    import('socket.io-client')
      .then(({ io }) => {
        if (closed) return;
        const s = io(origin, {
          auth: { token: session.token },
          transports: ['websocket', 'polling'],
          timeout: 20_000,
          reconnection: false,
          forceNew: true,
        });
        socket = s;
        s.on('connect', () => {
          s.emit(CLIENT_EVENTS.joinRoom, userRoom(session.userId));
          // Only the prices of the pairs on screen (pairWatch.ts); the server sends every pair's until told.
          watching?.unsubscribe();
          watching = watched$.subscribe((pairs) => s.emit(CLIENT_EVENTS.watchPairs, pairs));
          sub.next({ type: 'connected' });
        });
        s.on('connect_error', (err) => sub.error(err));
        s.on('disconnect', (reason) => {
          if (reason === 'io client disconnect') sub.complete();
          else sub.error(new Error(`disconnected: ${reason}`));
        });
        for (const name of EVENT_NAMES)
          s.on(name, (payload: unknown) => sub.next({ type: 'event', event: { name, payload } as ServerEvent }));
      })
      .catch((err: unknown) => sub.error(err));
    return () => {
      closed = true;
      watching?.unsubscribe();
      if (socket) {
        socket.emit(CLIENT_EVENTS.leaveRoom, userRoom(session.userId));
        socket.removeAllListeners();
        socket.disconnect();
      }
    };
  });
}
