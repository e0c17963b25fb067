// Exactly one trading engine per database (ENGINE_SHARDS=1). On PostgreSQL the leader holds a session advisory lock
// on a dedicated connection: if the process dies, the connection closes, the lock is released, and a standby takes
// over on its next attempt. PGlite lives inside one process, so that process is trivially the leader. With more than
// one shard each shard has its own lock (shard-locks.ts); the engine sees both through the same interface, the single
// leader holding shard 0 of 1.
import type pg from 'pg';
import type { EngineLogger } from './ports';

export interface LeadershipHandlers {
  /** These shards are ours now: recover their unfinished trades and trade their users. */
  onAcquired(shards: number[]): Promise<void> | void;
  /** These shards' locks are gone (their connection died): stop trading their users at once. */
  onLost(shards: number[]): void;
  /**
   * Hand a shard over: stop opening trades for its users and resolve once none of their trades is unfinished here;
   * the lock is released after that, so the next holder never meets a trade this instance still works on.
   */
  drain(shard: number): Promise<void>;
}

export interface Leadership {
  /** How many shards users are split into (1: one leader trades everyone). */
  readonly shards: number;
  /** Resolves after the first attempt; keeps trying in the background while standing by. */
  start(handlers: LeadershipHandlers): Promise<void>;
  stop(): Promise<void>;
  /** The backend pid of the connection holding the locks (PostgreSQL; shown to admins beside pg_locks), if any. */
  lockPid?(): number | null;
}

export const alwaysLeader = (): Leadership => ({
  shards: 1,
  start: async (handlers) => {
    await handlers.onAcquired([0]);
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
  let pid: number | null = null;

  const dropClient = () => {
    const c = client;
    client = null;
    pid = null;
    if (c) void c.end().catch(() => undefined);
  };

  const lost = () => {
    dropClient();
    if (leading) {
      leading = false;
      options.logger.error('lost the engine lock connection: stopped trading, standing by');
      handlers?.onLost([0]);
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
        pid = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? null;
      }
      const result = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key]);
      if (result.rows[0]?.locked) {
        leading = true;
        options.logger.info('holding the engine lock: this instance runs the trading engine');
        await handlers?.onAcquired([0]);
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
    shards: 1,
    lockPid: () => (leading ? pid : null),
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
