// Room authorization: a socket may join or leave only its own user room. Anything else is refused and logged, because
// asking for someone else's room is either a client bug or someone probing for other users' trades.
import { CLIENT_EVENTS, userRoom } from '../../contract';
import type { RoomAck } from '../../contract';
import type { RealtimeLogger, RealtimeSocket } from './types';

export const ROOM_REFUSED = 'You can only join your own room';

/** A client that keeps asking for rooms it may not have is probing, not confused: past this, it is disconnected. */
export const MAX_REFUSED_ROOM_REQUESTS = 20;

type Ack = ((result: RoomAck) => void) | undefined;

/** Socket.IO hands over whatever the client sent: the ack may be missing or not a function at all. */
function reply(ack: unknown, result: RoomAck): void {
  if (typeof ack === 'function') (ack as NonNullable<Ack>)(result);
}

export function registerRoomHandlers(socket: RealtimeSocket, logger: RealtimeLogger): void {
  const own = userRoom(socket.data.user.id);
  let refused = 0;
  const authorize = (action: 'join' | 'leave', room: unknown, ack: unknown): boolean => {
    if (room === own) return true;
    refused += 1;
    logger.warn(
      { userId: socket.data.user.id, room: typeof room === 'string' ? room.slice(0, 200) : typeof room, action },
      'realtime: room request refused',
    );
    reply(ack, { ok: false, message: ROOM_REFUSED });
    if (refused >= MAX_REFUSED_ROOM_REQUESTS) {
      logger.warn(
        { userId: socket.data.user.id, refused },
        'realtime: too many refused room requests, socket disconnected',
      );
      socket.disconnect(true);
    }
    return false;
  };

  socket.on(CLIENT_EVENTS.joinRoom, (room: unknown, ack?: unknown) => {
    if (!authorize('join', room, ack)) return;
    void Promise.resolve(socket.join(own)).then(() => reply(ack, { ok: true }));
  });
  socket.on(CLIENT_EVENTS.leaveRoom, (room: unknown, ack?: unknown) => {
    if (!authorize('leave', room, ack)) return;
    void Promise.resolve(socket.leave(own)).then(() => reply(ack, { ok: true }));
  });
}
