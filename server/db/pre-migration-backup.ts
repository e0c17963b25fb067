// Before a start applies pending migrations to the embedded database, a copy of it as it was goes to
// DATA_DIR/backups/: a migration that goes wrong, or a new version that must be rolled back, leaves the data of the
// version before. Only the newest few are kept; an operator's own backups (npm run backup) are never touched.
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { makePrivateDir } from '../security/data-dir';
import { latestAppliedMigration, pendingMigrations } from './migrate';
import { snapshotFileName, snapshotPglite, writeSnapshotFile } from './pglite-snapshot';

export const BACKUPS_DIR = 'backups';
export const PRE_MIGRATION_PREFIX = 'pre-migration';
/** How many pre-migration backups are kept. */
export const PRE_MIGRATION_KEEP = 5;

export interface PreMigrationBackup {
  file: string;
  bytes: number;
  /** Migrations the start is about to apply. */
  pending: number;
}

/**
 * Takes the backup when migrations are pending on a database that has been migrated before; null otherwise. `pgdata`
 * is the database's folder (DATA_DIR/db); the backup goes to DATA_DIR/backups.
 */
export async function backupBeforeMigrating(
  client: PGlite,
  pgdata: string,
  keep = PRE_MIGRATION_KEEP,
): Promise<PreMigrationBackup | null> {
  const latest = await latestAppliedMigration(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
  // A new database holds nothing to lose.
  if (latest === null) return null;
  const pending = pendingMigrations(latest);
  if (pending === 0) return null;
  const dir = makePrivateDir(join(dirname(pgdata), BACKUPS_DIR));
  const file = join(dir, snapshotFileName(PRE_MIGRATION_PREFIX));
  const bytes = await writeSnapshotFile(await snapshotPglite(client, pgdata, dir), file);
  prunePreMigrationBackups(dir, keep);
  return { file, bytes, pending };
}

/** Deletes all but the newest `keep` pre-migration backups (their names sort by time). */
export function prunePreMigrationBackups(dir: string, keep: number): string[] {
  const ours = readdirSync(dir)
    .filter((name) => name.startsWith(`${PRE_MIGRATION_PREFIX}-`) && name.endsWith('.tar.gz'))
    .sort();
  const doomed = ours.slice(0, Math.max(0, ours.length - keep));
  for (const name of doomed) rmSync(join(dir, name), { force: true });
  return doomed;
}
