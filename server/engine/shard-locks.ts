// Engine shards on PostgreSQL (ENGINE_SHARDS above 1). Every shard has its own session advisory lock, all held on one
// dedicated connection per instance: when the process dies its connection closes and every lock it held is gone, so
// another instance takes those shards on its next round (and recovers their unfinished trades, as after a restart).
//
// Fair share: each round counts the sharded engines alive (the sessions holding the shard-count lock, below) and
// aims at ceil(shards / engines) shards. Below that it takes free shards; above it (an instance joined) it drains one
// shard (no new trades for its users, their open trades run to their end here) and only then releases its lock, so
// the next holder never meets a trade that is still worked on here.
//
// Guards against a mixed deployment, where two engines would trade one user: every sharded instance holds the single
// leader's lock (leader.ts) shared, so a leader with ENGINE_SHARDS=1 and sharded instances exclude each other, and a
// shared lock on its shard count, so an instance sees another one running with a different ENGINE_SHARDS and takes
// nothing.
import type pg from 'pg';
import { ENGINE_LOCK_KEY, type Leadership, type LeadershipHandlers } from './leader';
import type { EngineLogger } from './ports';

/** Advisory lock (class, shard) of each shard: two int4 keys. */
export const SHARD_LOCK_CLASS = 734_021;
/** Advisory lock (class, shard count), held shared by every sharded engine: counts them and reveals a mixed count. */
export const SHARD_COUNT_CLASS = 734_022;

export interface ShardLocksOptions {
  connectionString: string;
  shards: number;
  logger: EngineLogger;
  /** Told whenever the held shards change, with the lock connection's backend pid (null without a connection). */
  onHeld?(shards: number[], lockPid: number | null): void;
  /** Called once when the lock connection is lost while shards were held (the process cannot trade safely on). */
  onFenced?(): void;
  /** Time between rounds. */
  roundMs?: number;
}

export interface ShardLeadership extends Leadership {
  /** The shard numbers held now, ascending. */
  held(): number[];
}

const IN_THIS_DATABASE = `locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`;

interface Census {
  /** Shards someone holds. */
  taken: Set<number>;
  /** Sharded engines alive (sessions holding this shard count's lock), this one included. */
  engines: number;
  /** Sessions holding another shard count's lock. */
  mixed: number;
}

export function shardLocks(options: ShardLocksOptions): ShardLeadership {
  const total = options.shards;
  const roundMs = options.roundMs ?? 1000;
  const { logger } = options;
  const held = new Set<number>();
  let client: pg.Client | null = null;
  let pid: number | null = null;
  let handlers: LeadershipHandlers | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let busy = false;
  let draining: number | null = null;
  let warned = '';

  const list = () => [...held].sort((a, b) => a - b);
  const told = () => options.onHeld?.(list(), client ? pid : null);
  const warnOnce = (message: string) => {
    if (warned !== message) logger.error(message);
    warned = message;
  };

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    pid = null;
    void c.end().catch(() => undefined);
    const gone = list();
    held.clear();
    told();
    if (gone.length > 0 && !stopped) {
      logger.error({ shards: gone }, 'lost the shard locks connection: stopped trading these shards');
      handlers?.onLost(gone);
      options.onFenced?.();
    }
  };

  const connect = async (): Promise<pg.Client> => {
    const { default: pgDriver } = await import('pg');
    const c = new pgDriver.Client({ connectionString: options.connectionString, keepAlive: true });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      const leader = await c.query<{ ok: boolean }>('select pg_try_advisory_lock_shared($1) as ok', [ENGINE_LOCK_KEY]);
      if (!leader.rows[0]?.ok)
        throw new MixedError('an instance with ENGINE_SHARDS=1 runs the trading engine on this database: not sharding');
      await c.query('select pg_advisory_lock_shared($1, $2)', [SHARD_COUNT_CLASS, total]);
      const me = await c.query<{ pid: number }>('select pg_backend_pid() as pid');
      pid = me.rows[0]?.pid ?? null;
      return c;
    } catch (error) {
      await c.end().catch(() => undefined);
      throw error;
    }
  };

  const census = async (c: pg.Client): Promise<Census> => {
    const result = await c.query<{ classid: string; objid: string; pid: number }>(
      `select classid::text, objid::text, pid from pg_locks where ${IN_THIS_DATABASE} and objsubid = 2 and classid::bigint in ($1, $2)`,
      [SHARD_LOCK_CLASS, SHARD_COUNT_CLASS],
    );
    const taken = new Set<number>();
    const engines = new Set<number>();
    let mixed = 0;
    for (const row of result.rows) {
      const key = Number(row.objid);
      if (Number(row.classid) === SHARD_LOCK_CLASS) taken.add(key);
      else if (key === total) engines.add(row.pid);
      else mixed += 1;
    }
    return { taken, engines: Math.max(1, engines.size), mixed };
  };

  const take = async (c: pg.Client, free: number[], want: number): Promise<number[]> => {
    const got: number[] = [];
    // From a random point, so instances starting together do not all reach for the same shard first.
    const start = Math.floor(Math.random() * free.length);
    for (let i = 0; i < free.length && got.length < want; i += 1) {
      const shard = free[(start + i) % free.length]!;
      const r = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [SHARD_LOCK_CLASS, shard]);
      if (r.rows[0]?.ok) got.push(shard);
    }
    return got;
  };

  const release = (c: pg.Client, shard: number) => {
    logger.info({ shard }, 'draining a shard for another instance');
    draining = shard;
    void Promise.resolve(handlers?.drain(shard))
      .then(async () => {
        if (client !== c || !held.has(shard)) return;
        await c.query('select pg_advisory_unlock($1, $2)', [SHARD_LOCK_CLASS, shard]);
        held.delete(shard);
        told();
        logger.info({ shard }, 'released a drained shard');
      })
      .catch((error: unknown) => logger.warn({ err: error, shard }, 'could not hand a shard over; trying again'))
      .finally(() => {
        draining = null;
      });
  };

  const round = async (): Promise<void> => {
    if (stopped || busy) return;
    busy = true;
    try {
      const c = client ?? (client = await connect());
      const { taken, engines, mixed } = await census(c);
      if (mixed > 0) {
        warnOnce(`another instance runs with a different ENGINE_SHARDS than ${total}: this one takes no shard`);
        return;
      }
      warned = '';
      const target = Math.ceil(total / engines);
      if (held.size > target && draining === null) {
        release(c, Math.max(...held));
        return;
      }
      if (held.size >= target) return;
      const free = Array.from({ length: total }, (_, s) => s).filter((s) => !taken.has(s));
      const got = await take(c, free, target - held.size);
      if (got.length === 0) return;
      for (const s of got) held.add(s);
      told();
      logger.info({ shards: got.sort((a, b) => a - b) }, 'took engine shards');
      try {
        await handlers?.onAcquired(got);
      } catch (error) {
        // Trading them could not begin (recovery failed): let them go, and try again later.
        logger.warn({ err: error, shards: got }, 'could not begin trading the shards taken; releasing them');
        for (const s of got) {
          held.delete(s);
          if (client === c) await c.query('select pg_advisory_unlock($1, $2)', [SHARD_LOCK_CLASS, s]);
        }
        told();
      }
    } catch (error) {
      if (error instanceof MixedError) warnOnce(error.message);
      else logger.warn({ err: error }, 'engine shard round failed');
      if (client && held.size === 0) lost(client);
    } finally {
      busy = false;
      schedule();
    }
  };

  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void round();
    }, roundMs);
    timer.unref();
  };

  return {
    shards: total,
    held: list,
    lockPid: () => (client ? pid : null),
    async start(h) {
      handlers = h;
      await round();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const c = client;
      client = null;
      held.clear();
      told();
      // Ending the session releases every lock it holds.
      if (c) await c.end().catch(() => undefined);
    },
  };
}

class MixedError extends Error {}
