// The backup a start takes before it applies pending migrations to the embedded database: the copy is the database
// as it was before (the older migration level, its rows), it lands in DATA_DIR/backups, only the newest few are kept,
// and a start with nothing pending (or a new database) takes none.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/client';
import { committedMigrations, latestAppliedMigration, MIGRATIONS_FOLDER } from '../../../server/db/migrate';
import { createClusterOutOfProcess, pgliteStartParams } from '../../../server/db/pglite-memory';
import { openSnapshot } from '../../../server/db/pglite-snapshot';
import { BACKUPS_DIR, PRE_MIGRATION_KEEP } from '../../../server/db/pre-migration-backup';
import { poll } from '../engine/server-process';

const scratch = mkdtempSync(join(tmpdir(), 'arb-premigration-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The committed migrations less the newest: what an earlier version of the app shipped. */
function earlierMigrations(): string {
  const folder = join(scratch, 'earlier-migrations');
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, -1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

const rowsOf = (client: PGlite) => async (text: string) => (await client.query<Record<string, unknown>>(text)).rows;

describe('the backup before pending migrations', () => {
  it('saves the database as it was before migrating, and keeps only the newest few', async () => {
    const dataDir = join(scratch, 'data');
    const dbDir = join(dataDir, 'db');
    mkdirSync(dataDir, { mode: 0o700 });
    createClusterOutOfProcess(dbDir);
    const older = await PGlite.create(dbDir, { startParams: pgliteStartParams() });
    await migrate(drizzle({ client: older }), { migrationsFolder: earlierMigrations() });
    await older.query(`INSERT INTO users (username, email, password_hash) VALUES ('kept', 'kept@example.test', 'x')`);
    const olderLevel = await latestAppliedMigration(rowsOf(older));
    await older.close();
    const committed = committedMigrations();
    expect(olderLevel).toBe(committed.at(-2));

    // Backups of earlier upgrades, older than the one this start takes.
    const backups = join(dataDir, BACKUPS_DIR);
    mkdirSync(backups, { mode: 0o700 });
    const earlier = Array.from(
      { length: PRE_MIGRATION_KEEP + 1 },
      (_, i) => `pre-migration-2000010${i + 1}T000000Z.tar.gz`,
    );
    for (const name of earlier) writeFileSync(join(backups, name), 'an earlier backup');
    writeFileSync(join(backups, 'my-own.tar.gz'), "the operator's own file");

    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    const taken = database.preMigrationBackup;
    await database.close();
    expect(taken).toMatchObject({ pending: 1 });
    expect(taken!.file.startsWith(join(backups, 'pre-migration-'))).toBe(true);
    expect(taken!.bytes).toBeGreaterThan(1000);
    // The newest five pre-migration backups stay (this one and four earlier ones); the operator's file is not touched.
    await poll('the copy packed removed', async () => !readdirSync(backups).some((n) => n.startsWith('.staging-')));
    expect(readdirSync(backups).sort()).toEqual(
      [...earlier.slice(-(PRE_MIGRATION_KEEP - 1)), taken!.file.slice(backups.length + 1), 'my-own.tar.gz'].sort(),
    );

    // The backup is the database before the migration: the older level, with its rows.
    const copy = await openSnapshot(taken!.file, join(scratch, 'restored'));
    try {
      expect(await latestAppliedMigration(rowsOf(copy))).toBe(olderLevel);
      expect((await copy.query<{ username: string }>('SELECT username FROM users')).rows).toEqual([
        { username: 'kept' },
      ]);
    } finally {
      await copy.close();
    }

    // The next start has nothing to apply, so it takes no backup.
    const again = await openDatabase({ dataDir, databaseUrl: undefined });
    expect(again.preMigrationBackup).toBeNull();
    await again.close();
    expect(readdirSync(backups)).toHaveLength(PRE_MIGRATION_KEEP + 1);
  }, 120_000);

  it('takes none for a new database', async () => {
    const dataDir = join(scratch, 'new');
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    expect(database.preMigrationBackup).toBeNull();
    await database.close();
    expect(readdirSync(dataDir)).not.toContain(BACKUPS_DIR);
  }, 120_000);
});

describe('a start on an up-to-date database', () => {
  it("knows the committed migrations by the journal's times, as drizzle's migrator does", () => {
    expect(committedMigrations()).toEqual(
      readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.folderMillis),
    );
  });

  it('opens it at the newest migration without a backup, as the start that migrated it left it', async () => {
    const dataDir = join(scratch, 'reopened');
    await (await openDatabase({ dataDir, databaseUrl: undefined })).close();
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    try {
      expect(database.preMigrationBackup).toBeNull();
      expect((await database.probe(10_000)).latestMigration).toBe(committedMigrations().at(-1));
    } finally {
      await database.close();
    }
  }, 120_000);
});
