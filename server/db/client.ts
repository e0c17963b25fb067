// Opens the database the configuration names — embedded PGlite in DATA_DIR, or PostgreSQL for DATABASE_URL — and
// brings its schema up to date with the committed migrations before anything else touches it.
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Config } from '../config';
import { makePrivateDir, tightenTree } from '../security/data-dir';
import * as schema from './schema';
import { latestAppliedMigration, migratePglite, migratePostgres, pendingMigrations, type RawQuery } from './migrate';
import { createClusterOutOfProcess, pgliteStartParams } from './pglite-memory';
import { pgliteAuthChanges, postgresAuthChanges, type AuthChangeFeed } from './auth-changes';
import { snapshotPglite } from './pglite-snapshot';
import { BACKUPS_DIR, backupBeforeMigrating, type PreMigrationBackup } from './pre-migration-backup';
import { postgresProbe, within, type DatabaseProbe } from './probe';

/** A pg Pool's clients (metrics); the embedded database has one in-process connection and no pool. */
export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a client. */
  waiting: number;
}

/** What every repository takes as its first argument: the database or a transaction of it, on either driver. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The database's announcements of revoked sessions and changed users, opened on first use (one per database). */
  authChanges(): Promise<AuthChangeFeed>;
  /** Whether the database answers, and its newest applied migration (readiness); rejects after `timeoutMs`. */
  probe: DatabaseProbe;
  /** PGlite: a consistent copy of the running database (server/db/pglite-snapshot.ts). PostgreSQL: null (pg_dump). */
  snapshot: (() => Promise<Readable>) | null;
  poolStats(): PoolStats | null;
  /** The backup taken at this start before pending migrations were applied, if one was. */
  preMigrationBackup: PreMigrationBackup | null;
  close(): Promise<void>;
}

/** Opens a feed once, on first ask. */
function once(open: () => Promise<AuthChangeFeed>) {
  let feed: Promise<AuthChangeFeed> | null = null;
  return {
    get: () => (feed ??= open()),
    close: async () => {
      if (feed) await (await feed).close();
    },
  };
}

export type DatabaseConfig = Pick<Config, 'dataDir' | 'databaseUrl'>;

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  return openPglite(resolve(config.dataDir, 'db'));
}

const rawQueryOn =
  (client: PGlite): RawQuery =>
  async (text) =>
    (await client.query<Record<string, unknown>>(text)).rows;

async function openPglite(dir: string): Promise<Database> {
  makePrivateDir(dir);
  createClusterOutOfProcess(dir);
  const client = await PGlite.create(dir, { startParams: pgliteStartParams() });
  const db = drizzlePglite({ client, schema });
  let preMigrationBackup: PreMigrationBackup | null = null;
  try {
    preMigrationBackup = await backupBeforeMigrating(client, dir);
    // Drizzle's migrator reads and hashes every migration file before it finds nothing to do; a start on an up-to-date
    // database (the usual one) asks the database for its newest migration and skips it.
    if (pendingMigrations(await latestAppliedMigration(rawQueryOn(client))) > 0) {
      await migratePglite(db);
      // PGlite unpacks a new cluster with world-writable files (0666): owner-only, like the rest of DATA_DIR (a start
      // on an existing cluster finds it so, server/security/data-dir.ts).
      tightenTree(dir);
    }
  } catch (error) {
    await client.close();
    throw error;
  }
  const feed = once(() => pgliteAuthChanges(client));
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    authChanges: feed.get,
    probe: async (timeoutMs) => {
      // Waits behind whatever holds PGlite's one connection (a long query, a backup's file copy).
      const latest = latestAppliedMigration(rawQueryOn(client));
      return { latestMigration: await within(latest, timeoutMs, 'the embedded database') };
    },
    snapshot: () => snapshotPglite(client, dir, join(dirname(dir), BACKUPS_DIR)),
    poolStats: () => null,
    preMigrationBackup,
    close: async () => {
      await feed.close();
      if (!client.closed) await client.close();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  // Loaded only here: a start on the embedded database does not pay for loading the PostgreSQL driver.
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema });
  try {
    await migratePostgres(db, pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  let closed = false;
  const feed = once(() => postgresAuthChanges(url));
  const probe = postgresProbe(pg, url);
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    authChanges: feed.get,
    probe: probe.probe,
    snapshot: null,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    preMigrationBackup: null,
    close: async () => {
      if (closed) return;
      closed = true;
      await probe.close();
      await feed.close();
      await pool.end();
    },
  };
}
