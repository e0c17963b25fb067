// Exactly one trading engine per database. On PostgreSQL the leader holds a session advisory lock on a dedicated
// connection: if the process dies, the connection closes, the lock is released, and a standby takes over on its next
// attempt. PGlite lives inside one process, so that process is trivially the leader.
import type pg from 'pg';
import type { EngineLogger } from './ports';

export interface LeadershipHandlers {
  onAcquired(): Promise<void> | void;
  onLost(): void;
}

export interface Leadership {
  /** Resolves after the first attempt; keeps trying in the background while standing by. */
  start(handlers: LeadershipHandlers): Promise<void>;
  stop(): Promise<void>;
}

export const alwaysLeader = (): Leadership => ({
  start: async (handlers) => {
    await handlers.onAcquired();
  },
  stop: async () => undefined,
});

/** Arbitrary but fixed: the advisory lock key of the trading engine. */
export const ENGINE_LOCK_KEY = 7_340_211_905;

export interface AdvisoryLockOptions {
  connectionString: string;
  retryMs?: number;
  key?: number;
  logger: EngineLogger;
}

export function advisoryLockLeadership(options: AdvisoryLockOptions): Leadership {
  const retryMs = options.retryMs ?? 3000;
  const key = options.key ?? ENGINE_LOCK_KEY;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let leading = false;
  let handlers: LeadershipHandlers | null = null;

  const dropClient = () => {
    const c = client;
    client = null;
    if (c) void c.end().catch(() => undefined);
  };

  const lost = () => {
    dropClient();
    if (leading) {
      leading = false;
      options.logger.error('lost the engine lock connection: stopped trading, standing by');
      handlers?.onLost();
    }
    schedule();
  };

  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void attempt();
    }, retryMs);
    timer.unref();
  };

  const attempt = async (): Promise<void> => {
    if (stopped || leading) return;
    try {
      if (!client) {
        // The driver is loaded with the first attempt: only instances on PostgreSQL elect a leader.
        const { default: pgDriver } = await import('pg');
        if (stopped) return;
        const c = new pgDriver.Client({ connectionString: options.connectionString, keepAlive: true });
        c.on('error', lost);
        c.on('end', () => {
          if (client === c) lost();
        });
        await c.connect();
        client = c;
      }
      const result = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key]);
      if (result.rows[0]?.locked) {
        leading = true;
        options.logger.info('holding the engine lock: this instance runs the trading engine');
        await handlers?.onAcquired();
        return;
      }
      options.logger.info('another instance holds the engine lock: standing by');
    } catch (error) {
      // Also when starting to trade failed after the lock was taken: let it go, and try again later.
      options.logger.warn({ err: error }, 'engine lock attempt failed');
      leading = false;
      dropClient();
    }
    schedule();
  };

  return {
    async start(h) {
      handlers = h;
      await attempt();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      leading = false;
      const c = client;
      client = null;
      // Ending the session releases the lock.
      if (c) await c.end().catch(() => undefined);
    },
  };
}
