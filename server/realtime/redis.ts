// Scale-out: with REDIS_URL every instance's Socket.IO server shares rooms through Redis pub/sub, so an event emitted
// on the engine's instance reaches clients connected to any instance. Behind a load balancer, the polling fallback
// needs sticky sessions (its requests must reach the instance that holds the session); websockets do not.
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { RealtimeLogger, RealtimeServer } from './types';

export interface RedisFanout {
  /** Resolves once this instance's subscriptions are registered in Redis (events from others will arrive). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function useRedisAdapter(io: RealtimeServer, redisUrl: string, keyPrefix: string, logger: RealtimeLogger): RedisFanout {
  const pub = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const sub = pub.duplicate();
  // ioredis retries on its own; log once per failure instead of crashing on an unhandled 'error' event.
  for (const [role, client] of [['pub', pub], ['sub', sub]] as const) {
    client.on('error', (error: Error) => logger.warn({ err: error.message, role }, 'realtime: redis connection error'));
  }
  io.adapter(createAdapter(pub, sub, { key: keyPrefix }));
  // The adapter issued its SUBSCRIBE commands on `sub`; a PING on the same connection answers after them.
  const ready = sub.ping().then(() => undefined);
  ready.catch(() => undefined);
  return {
    ready,
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
