// A fresh, empty database per test file on either backend: PGlite in a temp dir, or a uniquely named PostgreSQL
// database on 127.0.0.1:5432 that is dropped again afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../../server/db/client';
import { copyPgliteTemplate } from './pglite-template';

export type Backend = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_POSTGRES_URL is set (the CI script sets it). Use with describe.each. */
export const backends: Backend[] = process.env.TEST_POSTGRES_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase extends Database {
  /** The DATABASE_URL to give the config for a PostgreSQL backend; undefined for PGlite. */
  url: string | undefined;
}

function adminUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url) throw new Error('TEST_POSTGRES_URL is not set');
  return url;
}

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** Opens (and migrates) a fresh database of the given kind; `close()` also drops a PostgreSQL one. */
export async function openTestDatabase(backend: Backend, dataDir: string): Promise<TestDatabase> {
  if (backend === 'pglite') {
    await copyPgliteTemplate(dataDir);
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    return { ...database, url: undefined };
  }
  const created = await createPostgresDatabase();
  const database = await openDatabase({ dataDir, databaseUrl: created.url });
  return {
    ...database,
    url: created.url,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}
