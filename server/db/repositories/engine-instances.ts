// The server instances on this database (server/db/schema/engine-instances.ts): each writes its own row on a
// heartbeat; admins read the live ones with the engine shards each holds. On PostgreSQL what an instance holds is read
// from pg_locks by the pid of its lock session, which is true at this very moment (a killed instance's locks are gone
// at once, while its row only ages); the embedded database has one instance, whose row says it.
import { eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { engineInstances, type EngineInstanceRow } from '../schema';

export type InstanceRow = Omit<EngineInstanceRow, 'seenAt'>;

/** How often each instance writes its row, and after how long without a write it counts as gone. */
export const INSTANCE_HEARTBEAT_MS = 2000;
export const INSTANCE_STALE_MS = 10_000;

export async function saveInstance(db: Db, row: InstanceRow): Promise<void> {
  const now = new Date();
  await db
    .insert(engineInstances)
    .values({ ...row, seenAt: now })
    .onConflictDoUpdate({
      target: engineInstances.id,
      set: { shards: row.shards, shardCount: row.shardCount, lockPid: row.lockPid, engine: row.engine, seenAt: now },
    });
}

export async function dropInstance(db: Db, id: string): Promise<void> {
  await db.delete(engineInstances).where(eq(engineInstances.id, id));
}

/** Rows of instances that stopped long ago go (they were not shut down cleanly). */
export async function pruneInstances(db: Db, olderThan: Date): Promise<void> {
  await db.delete(engineInstances).where(lt(engineInstances.seenAt, olderThan));
}

/** Instances seen since `since`, oldest start first. */
export async function liveInstances(db: Db, since: Date): Promise<EngineInstanceRow[]> {
  return db
    .select()
    .from(engineInstances)
    .where(gt(engineInstances.seenAt, since))
    .orderBy(engineInstances.startedAt, engineInstances.id);
}

/**
 * PostgreSQL: the shard numbers each lock session holds now, by backend pid. `shardClass` is the advisory lock class of
 * shard locks; the single leader's lock (a bigint key) counts as shard 0.
 */
export async function shardsByLockPid(db: Db, shardClass: number, leaderKey: number): Promise<Map<number, number[]>> {
  const high = Math.floor(leaderKey / 2 ** 32);
  const low = leaderKey % 2 ** 32;
  const result = (await db.execute(sql`
    select pid, case when objsubid = 2 then objid::bigint else 0 end as shard
    from pg_locks
    where locktype = 'advisory' and granted and mode = 'ExclusiveLock'
      and database = (select oid from pg_database where datname = current_database())
      and ((objsubid = 2 and classid::bigint = ${shardClass})
        or (objsubid = 1 and classid::bigint = ${high} and objid::bigint = ${low}))
  `)) as unknown as { rows: Array<{ pid: number; shard: string | number }> };
  const held = new Map<number, number[]>();
  for (const row of result.rows) {
    const list = held.get(Number(row.pid)) ?? [];
    list.push(Number(row.shard));
    held.set(Number(row.pid), list);
  }
  for (const list of held.values()) list.sort((a, b) => a - b);
  return held;
}
