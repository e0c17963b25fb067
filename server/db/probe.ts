// The readiness probe's question to the database: does it answer, and which migrations has it? On PostgreSQL it is
// asked over a connection of its own, never the pool's: a probe waiting on an unreachable server must not hold a pool
// client the app needs, and a connection that went quiet is dropped and made again on the next probe.
import type pg from 'pg';
import { latestAppliedMigration } from './migrate';

export interface ProbeAnswer {
  /** The newest applied migration's `when` (ms), null when none is. */
  latestMigration: number | null;
}

export type DatabaseProbe = (timeoutMs: number) => Promise<ProbeAnswer>;

/** Rejects after `ms` with a message that says so, unless `work` settles first. */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function postgresProbe(driver: typeof pg, url: string): { probe: DatabaseProbe; close(): Promise<void> } {
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  const drop = (which: pg.Client) => {
    if (client === which) client = null;
    void which.end().catch(() => undefined);
  };
  const connect = (timeoutMs: number): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const next = new driver.Client({
        connectionString: url,
        connectionTimeoutMillis: timeoutMs,
        query_timeout: timeoutMs,
        keepAlive: true,
        application_name: 'readiness probe',
      });
      next.on('error', () => drop(next));
      next.on('end', () => drop(next));
      try {
        await next.connect();
      } catch (error) {
        drop(next);
        throw error;
      }
      client = next;
      return next;
    })().finally(() => (connecting = null));
    return connecting;
  };
  return {
    probe: async (timeoutMs) => {
      const work = connect(timeoutMs).then(async (c) => {
        try {
          return { latestMigration: await latestAppliedMigration(async (text) => (await c.query(text)).rows) };
        } catch (error) {
          drop(c);
          throw error;
        }
      });
      return within(work, timeoutMs, 'PostgreSQL');
    },
    close: async () => {
      const last = client;
      client = null;
      await last?.end().catch(() => undefined);
    },
  };
}
