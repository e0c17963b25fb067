// Re-checking connected sockets' tokens, so that a revoked or expired session loses its live feed.
import { safeVerify } from './identity';
import type { VerifyToken } from './identity';
import type { RealtimeLogger, RealtimeServer, RealtimeSocket } from './types';

/** Which sockets a revalidation round re-checks: everyone's, or only those of some users. */
interface Scope {
  all: boolean;
  users: Set<string>;
}

/**
 * One verification per distinct token per round. A request that arrives while a round runs queues one more round
 * after it (requests merge their scopes), because the running one may have read a session before it was revoked.
 */
export function createRevalidator(
  io: RealtimeServer,
  verifyToken: VerifyToken,
  logger: RealtimeLogger,
): (userId?: string) => Promise<void> {
  const round = async (scope: Scope) => {
    const byToken = new Map<string, RealtimeSocket[]>();
    for (const socket of io.of('/').sockets.values()) {
      if (!scope.all && !scope.users.has(socket.data.user.id)) continue;
      const list = byToken.get(socket.data.token) ?? [];
      list.push(socket);
      byToken.set(socket.data.token, list);
    }
    await Promise.all(
      [...byToken].map(async ([token, sockets]) => {
        if (await safeVerify(verifyToken, token)) return;
        for (const socket of sockets) {
          logger.info({ userId: socket.data.user.id }, 'realtime: session no longer valid, socket disconnected');
          socket.disconnect(true);
        }
      }),
    );
  };
  let running: Promise<void> | null = null;
  let queued: (Scope & { done: Promise<void> }) | null = null;
  const start = (scope: Scope): Promise<void> => {
    running = round(scope)
      .catch((error: unknown) => logger.error({ err: error }, 'realtime: revalidation failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const widen = (scope: Scope, userId: string | undefined) => {
    if (userId === undefined) scope.all = true;
    else scope.users.add(userId);
  };
  return (userId) => {
    if (!running) {
      const scope: Scope = { all: false, users: new Set() };
      widen(scope, userId);
      return start(scope);
    }
    if (!queued) {
      const next: Scope = { all: false, users: new Set() };
      queued = Object.assign(next, {
        done: running.then(() => {
          queued = null;
          return start(next);
        }),
      });
    }
    widen(queued, userId);
    return queued.done;
  };
}
