// A fresh, empty database per test file on either backend: PGlite in a temp dir, or a uniquely named PostgreSQL
// database on 127.0.0.1:5432 that is dropped again afterwards.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../../server/db/client';
import { MIGRATIONS_FOLDER } from '../../../server/db/migrate';

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

/** Changes whenever a migration changes, so a stale template is never reused. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(MIGRATIONS_FOLDER);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A migrated, empty PGlite data directory shared by all test files of a run. Creating a PGlite cluster (initdb in
 * WASM) takes many seconds on a busy machine; copying a ready one takes about one. Built once, then renamed into
 * place atomically, so parallel test files never see a half-written template.
 */
async function pgliteTemplate(): Promise<string> {
  const root = join(tmpdir(), 'arb-pglite-templates');
  const template = join(root, migrationsFingerprint());
  if (existsSync(template)) return template;
  mkdirSync(root, { recursive: true });
  const scratch = join(root, `building-${process.pid}-${randomBytes(4).toString('hex')}`);
  const database = await openDatabase({ dataDir: scratch, databaseUrl: undefined });
  await database.close();
  try {
    renameSync(join(scratch, 'db'), template);
  } catch {
    // Another test file finished its template first; theirs is as good as ours.
  }
  rmSync(scratch, { recursive: true, force: true });
  return template;
}

/** Opens (and migrates) a fresh database of the given kind; `close()` also drops a PostgreSQL one. */
export async function openTestDatabase(backend: Backend, dataDir: string): Promise<TestDatabase> {
  if (backend === 'pglite') {
    cpSync(await pgliteTemplate(), join(dataDir, 'db'), { recursive: true });
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
