// A fresh, migrated database for the repository suites: PGlite in a temp dir, or a uniquely named PostgreSQL
// database (created here, dropped by close) when TEST_POSTGRES_URL is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../../server/db/client';

export type BackendKind = 'pglite' | 'postgres';

export const repositoryBackends: BackendKind[] = process.env.TEST_POSTGRES_URL ? ['pglite', 'postgres'] : ['pglite'];

export async function freshDatabase(kind: BackendKind): Promise<Database> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'api-repo-'));
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    return {
      ...database,
      close: async () => {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = process.env.TEST_POSTGRES_URL as string;
  const name = `api_repo_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ dataDir: tmpdir(), databaseUrl: url.toString() });
  return {
    ...database,
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
