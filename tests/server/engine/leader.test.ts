// One trading engine per database: the PostgreSQL advisory lock elects a leader, a standby takes over when the
// leader stops or its connection dies. Runs where TEST_POSTGRES_URL is set.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { advisoryLockLeadership, type Leadership } from '../../../server/engine/leader';
import { SILENT_LOGGER } from '../../../server/engine/ports';

const url = process.env.TEST_POSTGRES_URL;
const key = 900_000_000 + Math.floor(Math.random() * 1_000_000);

function candidate(name: string, log: string[]) {
  let acquired!: () => void;
  let reacquired!: () => void;
  let lost!: () => void;
  let leads = 0;
  const acquiredP = new Promise<void>((r) => (acquired = r));
  const reacquiredP = new Promise<void>((r) => (reacquired = r));
  const lostP = new Promise<void>((r) => (lost = r));
  const leadership: Leadership = advisoryLockLeadership({
    connectionString: url as string,
    key,
    retryMs: 50,
    logger: SILENT_LOGGER,
  });
  const started = leadership.start({
    onAcquired: () => {
      log.push(`${name} leads`);
      leads += 1;
      if (leads === 1) acquired();
      else reacquired();
    },
    onLost: () => {
      log.push(`${name} lost`);
      lost();
    },
    drain: async () => undefined,
  });
  return { leadership, started, acquired: acquiredP, reacquired: reacquiredP, lost: lostP };
}

describe.skipIf(!url)('engine leadership on PostgreSQL', () => {
  const all: Leadership[] = [];
  afterAll(async () => {
    for (const l of all) await l.stop();
  });

  it('elects one leader; a standby takes over when it stops', async () => {
    const log: string[] = [];
    const a = candidate('a', log);
    all.push(a.leadership);
    await a.started;
    await a.acquired;
    const b = candidate('b', log);
    all.push(b.leadership);
    await b.started;
    expect(log).toEqual(['a leads']);
    await a.leadership.stop();
    await b.acquired;
    expect(log).toEqual(['a leads', 'b leads']);
    await b.leadership.stop();
  });

  it('takes over when the leader connection dies, and the old leader stops trading', async () => {
    const log: string[] = [];
    const a = candidate('a', log);
    all.push(a.leadership);
    await a.acquired;
    const b = candidate('b', log);
    all.push(b.leadership);
    await b.started;
    // kill the leader's session, as a crashed process or a dropped connection would
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = $1 and granted`,
        [key],
      );
    } finally {
      await admin.end();
    }
    await a.lost;
    // whichever candidate retries first becomes the leader; never both
    await Promise.race([b.acquired, a.reacquired]);
    expect(log.slice(0, 2)).toEqual(['a leads', 'a lost']);
    expect(log.slice(2)).toHaveLength(1);
    expect(['a leads', 'b leads']).toContain(log[2]);
  });
});
