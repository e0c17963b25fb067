// Engine shards' locks on PostgreSQL (server/engine/shard-locks.ts): the fair share, the drain before a shard is
// handed over, the takeover when an instance's session dies, and the guards against a mixed deployment. Runs where
// TEST_POSTGRES_URL is set, on a database of its own (advisory locks are per database).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advisoryLockLeadership, type Leadership } from '../../../server/engine/leader';
import { SILENT_LOGGER } from '../../../server/engine/ports';
import { shardLocks, type ShardLeadership } from '../../../server/engine/shard-locks';
import { shardOf } from '../../../server/engine/shards';
import { createPostgresDatabase } from '../helpers/database';

describe('shardOf', () => {
  it('is a stable hash of the user id, spread over the shards', () => {
    expect(shardOf('8c6f1f5e-3f0a-4d47-9d8b-2a1c4e5f6a7b', 1)).toBe(0);
    // FNV-1a 32 of 'a' is 0xe40c292c: the same on every instance and every start.
    expect(shardOf('a', 1000)).toBe(0xe40c292c % 1000);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i += 1) counts[shardOf(crypto.randomUUID(), 4)]! += 1;
    for (const n of counts) expect(n).toBeGreaterThan(800);
  });
});

const url = process.env.TEST_POSTGRES_URL;

interface Candidate {
  locks: ShardLeadership;
  log: string[];
  /** Resolves the drain of a shard (the test decides when its trades have ended). */
  finishDrain(shard: number): void;
  draining: Set<number>;
  fenced: boolean;
}

describe.skipIf(!url)('engine shard locks on PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  const all: Leadership[] = [];
  beforeAll(async () => {
    database = await createPostgresDatabase();
  });
  afterAll(async () => {
    for (const l of all) await l.stop();
    await database.drop();
  });

  const candidate = async (shards: number): Promise<Candidate> => {
    const finishers = new Map<number, () => void>();
    const c: Candidate = {
      log: [],
      draining: new Set(),
      fenced: false,
      finishDrain: (shard) => finishers.get(shard)?.(),
      locks: shardLocks({
        connectionString: database.url,
        shards,
        logger: SILENT_LOGGER,
        roundMs: 30,
        onFenced: () => (c.fenced = true),
      }),
    };
    all.push(c.locks);
    await c.locks.start({
      onAcquired: (s) => void c.log.push(`took ${s.join(',')}`),
      onLost: (s) => void c.log.push(`lost ${s.join(',')}`),
      drain: (shard) => {
        c.draining.add(shard);
        return new Promise<void>((resolve) => finishers.set(shard, resolve));
      },
    });
    return c;
  };
  const until = async (what: string, ok: () => boolean) => {
    for (let i = 0; i < 400 && !ok(); i += 1) await new Promise((r) => setTimeout(r, 25));
    if (!ok()) throw new Error(`gave up waiting for ${what}`);
  };

  it('shares the shards fairly, hands one over only once drained, and takes a dead instance’s shards', async () => {
    const a = await candidate(4);
    expect(a.locks.held()).toEqual([0, 1, 2, 3]);
    const b = await candidate(4);
    // A is above its share now: it drains one shard, and keeps its lock while the drain lasts.
    await until('A draining a shard', () => a.draining.size === 1);
    const first = [...a.draining][0]!;
    await new Promise((r) => setTimeout(r, 200));
    expect(a.locks.held()).toContain(first);
    expect(b.locks.held()).toEqual([]);
    a.finishDrain(first);
    await until('B taking the drained shard', () => b.locks.held().includes(first));
    await until('A draining a second shard', () => a.draining.size === 2);
    a.finishDrain([...a.draining].find((s) => s !== first)!);
    await until('two shards each', () => a.locks.held().length === 2 && b.locks.held().length === 2);
    expect(new Set([...a.locks.held(), ...b.locks.held()]).size).toBe(4);

    // A's session dies, as a killed process's would: A learns it lost its shards, B takes them.
    const aShards = a.locks.held();
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(`select pg_terminate_backend($1)`, [a.locks.lockPid?.()]);
    } finally {
      await admin.end();
    }
    await until('B holding all four', () => b.locks.held().length === 4);
    await until('A told', () => a.fenced);
    expect(a.log).toContain(`lost ${aShards.join(',')}`);
    expect(a.locks.held()).toEqual([]);
    await a.locks.stop();
  });

  it('takes nothing beside an instance with another shard count or a single leader', async () => {
    const three = await candidate(3);
    await new Promise((r) => setTimeout(r, 200));
    expect(three.locks.held()).toEqual([]);
    await three.locks.stop();
    for (const l of all) await l.stop();

    const leader = advisoryLockLeadership({ connectionString: database.url, logger: SILENT_LOGGER, retryMs: 30 });
    all.push(leader);
    let leads = false;
    await leader.start({
      onAcquired: () => void (leads = true),
      onLost: () => undefined,
      drain: async () => undefined,
    });
    expect(leads).toBe(true);
    const sharded = await candidate(2);
    await new Promise((r) => setTimeout(r, 200));
    expect(sharded.locks.held()).toEqual([]);
  });
});
