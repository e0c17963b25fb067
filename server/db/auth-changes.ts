// Changes to who may use a session, announced by the database itself: triggers on `sessions` (revoked, deleted) and
// `users` (role or active flag changed, deleted) NOTIFY this channel with the user's id in the writing transaction
// (migration 0007_auth_change_notify), so every instance hears of every change whatever code path or process made it,
// at commit. Instances cache session checks (server/http/plugins/session-cache.ts) only while their feed is live.
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

export const AUTH_CHANGE_CHANNEL = 'auth_change';

export interface AuthChangeListener {
  /** The user's sessions or access changed: forget what is known of them. */
  changed(userId: string): void;
  /** Notifications may have been missed (the listening connection dropped): forget everything and stop caching. */
  lost(): void;
  /** Listening (again): caching may resume. */
  live(): void;
}

export interface AuthChangeFeed {
  /** Whether notifications are known to arrive right now. */
  readonly isLive: boolean;
  subscribe(listener: AuthChangeListener): () => void;
  close(): Promise<void>;
}

function listeners() {
  const set = new Set<AuthChangeListener>();
  return {
    set,
    changed: (userId: string) => set.forEach((l) => l.changed(userId)),
    lost: () => set.forEach((l) => l.lost()),
    live: () => set.forEach((l) => l.live()),
  };
}

/** PGlite runs inside this process, so its notifications cannot be lost while it is open. */
export async function pgliteAuthChanges(client: PGlite, channel = AUTH_CHANGE_CHANNEL): Promise<AuthChangeFeed> {
  const out = listeners();
  const unlisten = await client.listen(channel, (payload) => out.changed(payload));
  return {
    isLive: true,
    subscribe(listener) {
      out.set.add(listener);
      return () => out.set.delete(listener);
    },
    close: async () => {
      out.lost();
      if (!client.closed) await unlisten();
    },
  };
}

/**
 * PostgreSQL: one dedicated connection LISTENs. When it drops, the feed reports `lost` at once (caches empty and stop)
 * and reconnects with a growing delay; `live` follows the next successful LISTEN.
 */
export function postgresAuthChanges(url: string, retryMs = 500): Promise<AuthChangeFeed> {
  return postgresChannelFeed(url, AUTH_CHANGE_CHANNEL, retryMs);
}

/** The same listening connection for any channel (the global kill switch's: server/db/repositories/trading-halt.ts). */
export async function postgresChannelFeed(url: string, channel: string, retryMs = 500): Promise<AuthChangeFeed> {
  // The driver loads with the first PostgreSQL connection, as in client.ts: an embedded start never pays for it.
  const { default: driver } = await import('pg');
  const out = listeners();
  let client: pg.Client | null = null;
  let isLive = false;
  let closed = false;
  let delay = retryMs;
  let timer: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const next = new driver.Client({ connectionString: url });
    const drop = () => {
      if (client !== next) return;
      client = null;
      if (isLive) {
        isLive = false;
        out.lost();
      }
      void next.end().catch(() => undefined);
      if (!closed) schedule();
    };
    next.on('error', drop);
    next.on('end', drop);
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload) out.changed(message.payload);
    });
    client = next;
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    if (closed || client !== next) return;
    isLive = true;
    delay = retryMs;
    out.live();
  };
  const schedule = () => {
    timer = setTimeout(() => {
      timer = null;
      connect().catch(() => {
        client = null;
        if (!closed) schedule();
      });
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 30_000);
  };

  try {
    await connect();
  } catch {
    // The database answers the pool but not a listening connection: run without a cache until it does.
    client = null;
    schedule();
  }
  return {
    get isLive() {
      return isLive;
    },
    subscribe(listener) {
      out.set.add(listener);
      return () => out.set.delete(listener);
    },
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = null;
      if (isLive) {
        isLive = false;
        out.lost();
      }
      await current?.end().catch(() => undefined);
    },
  };
}
