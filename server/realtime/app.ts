// The gateway on the app's own HTTP server: same origin, the core's token check, immediate disconnect on revocation,
// closed before the server so open websockets never hold the shutdown.
import type { FastifyInstance } from 'fastify';
import type { Observable } from 'rxjs';
import type { EngineEvent } from '../engine/events';
import { attachRealtime } from './gateway';
import type { Realtime } from './gateway';
import { SERVER_EVENTS } from '../../contract/events';
import { userRoom } from '../../contract/domain';
import { SIGNED_IN_ROOM } from './types';

/** Call before `app.listen()` (it adds a preClose hook). Omit `events$` on an instance that runs no engine. */
export function attachRealtimeToApp(app: FastifyInstance, events$?: Observable<EngineEvent>): Realtime {
  const realtime = attachRealtime(app.server, {
    verifyToken: (token) => app.verifyToken(token),
    ...(events$ ? { events$ } : {}),
    priceHz: app.config.priceHz,
    ...(app.config.redisUrl ? { redisUrl: app.config.redisUrl } : {}),
    logger: app.log,
  });
  // Logout, password change, deactivation, deletion: drop the affected sockets now rather than at the next minute.
  const revocations = app.revocations$.subscribe(({ userId }) => void realtime.revalidate(userId));
  // The global kill switch: every signed-in user sees the banner at once (through Redis, on every instance).
  const halts = app.haltChanges$.subscribe((halt) =>
    realtime.io.to(SIGNED_IN_ROOM).emit(SERVER_EVENTS.tradingHalt, halt),
  );
  // A notification just sent: the user's open apps add it to their history at once (through Redis, on every instance).
  const notifications = app.notificationsSent$.subscribe(({ userId, notification }) =>
    realtime.io.to(userRoom(userId)).emit(SERVER_EVENTS.notification, notification),
  );
  app.addHook('preClose', async () => {
    revocations.unsubscribe();
    halts.unsubscribe();
    notifications.unsubscribe();
    await realtime.close();
  });
  return realtime;
}
