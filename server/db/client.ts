// Opens the database the configuration names — embedded PGlite in DATA_DIR, or PostgreSQL for DATABASE_URL — and
// brings its schema up to date with the committed migrations before anything else touches it.
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Config } from '../config';
import { makePrivateDir, tightenTree } from '../security/data-dir';
import * as schema from './schema';
import { migratePglite, migratePostgres } from './migrate';
import { createClusterOutOfProcess, pgliteStartParams } from './pglite-memory';
import { pgliteAuthChanges, postgresAuthChanges, type AuthChangeFeed } from './auth-changes';

/** What every repository takes as its first argument: the database or a transaction of it, on either driver. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The database's announcements of revoked sessions and changed users, opened on first use (one per database). */
  authChanges(): Promise<AuthChangeFeed>;
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

async function openPglite(dir: string): Promise<Database> {
  makePrivateDir(dir);
  createClusterOutOfProcess(dir);
  const client = await PGlite.create(dir, { startParams: pgliteStartParams() });
  const db = drizzlePglite({ client, schema });
  try {
    await migratePglite(db);
    // PGlite unpacks a new cluster with world-writable files (0666): owner-only, like the rest of DATA_DIR.
    tightenTree(dir);
  } catch (error) {
    await client.close();
    throw error;
  }
  const feed = once(() => pgliteAuthChanges(client));
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    authChanges: feed.get,
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
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    authChanges: feed.get,
    close: async () => {
      if (closed) return;
      closed = true;
      await feed.close();
      await pool.end();
    },
  };
}
