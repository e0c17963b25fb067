// `npm run restore -- FILE`: puts a backup (npm run backup, the admin download, a pre-migration backup) into a
// DATA_DIR that holds no database yet: a new machine, or a directory whose database was moved away. It refuses a
// DATA_DIR with a database in it, and one a server or another command holds. The backup is unpacked beside the target
// and opened once (which replays its log, as after a crash, and proves it is this app's database) before it is moved
// into place, so an interrupted or refused restore leaves DATA_DIR as it was.
import { existsSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { committedMigrations } from '../../db/migrate';
import { openSnapshot, SnapshotFileError } from '../../db/pglite-snapshot';
import { makePrivateDir, tightenTree } from '../../security/data-dir';
import { decryptSecret } from '../../security/encryption';
import { ENCRYPTION_KEY_FILE } from '../../security/secrets';
import { configOrExit, fail, KEY_FILES_NOTE, megabytes, seconds } from './cli';
import { claimDataDir, DataDirBusyError } from './data-dir-claim';

interface Contents {
  users: number;
  trades: number;
  auditEvents: number;
  latestMigration: number | null;
  /** One encrypted secret of the backup (venue credential or two-factor), to try the key on; null when none. */
  sample: string | null;
  secrets: number;
}

async function contentsOf(client: PGlite, file: string): Promise<Contents> {
  try {
    const { rows } = await client.query<Omit<Contents, 'latestMigration'> & { latest: string | null }>(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM trades) AS trades,
              (SELECT count(*)::int FROM audit_events) AS "auditEvents",
              (SELECT count(*)::int FROM venue_credentials) + (SELECT count(*)::int FROM two_factor) AS secrets,
              COALESCE((SELECT coalesce(binance_api_key_enc, deriv_token_enc) FROM venue_credentials
                         WHERE coalesce(binance_api_key_enc, deriv_token_enc) IS NOT NULL LIMIT 1),
                       (SELECT secret_enc FROM two_factor LIMIT 1)) AS sample,
              (SELECT max(created_at)::text FROM drizzle.__drizzle_migrations) AS latest`,
    );
    const row = rows[0]!;
    return { ...row, latestMigration: row.latest === null ? null : Number(row.latest) };
  } catch (error) {
    throw new SnapshotFileError(file, `its database is not this app's (${(error as Error).message})`);
  }
}

/** What the operator must know about the key that decrypts the backup's secrets in this DATA_DIR. */
function keyVerdict(dataDir: string, configured: Buffer | undefined, contents: Contents): string {
  if (contents.sample === null) return 'The backup holds no encrypted secrets.';
  const keyFile = join(dataDir, ENCRYPTION_KEY_FILE);
  const key = configured ?? (existsSync(keyFile) ? Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex') : null);
  const what = `the backup's ${contents.secrets} record(s) of venue credentials and two-factor secrets`;
  if (!key)
    return `WARNING: no encryption key yet. Before starting the server, copy the old ${ENCRYPTION_KEY_FILE} into ${dataDir} (or set ENCRYPTION_KEY); otherwise ${what} cannot be read and a start generates a new key.`;
  try {
    decryptSecret(key, contents.sample);
    return `The encryption key ${configured ? 'in ENCRYPTION_KEY' : `in ${keyFile}`} decrypts ${what}.`;
  } catch {
    return `WARNING: the encryption key ${configured ? 'in ENCRYPTION_KEY' : `in ${keyFile}`} does not decrypt ${what}: use the key of the server the backup was taken from.`;
  }
}

async function main(): Promise<void> {
  const [given, ...extra] = process.argv.slice(2);
  if (!given || extra.length > 0 || given === '--help')
    fail('Usage: npm run restore -- FILE   (into the DATA_DIR of this environment, which must hold no database)');
  const config = configOrExit(process.env);
  if (config.databaseUrl)
    fail('DATABASE_URL is set: the data is in PostgreSQL. Restore it with pg_restore (README, Operations).');
  const file = resolve(given);
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) fail(`${file} is not a file`);
  const dataDir = makePrivateDir(config.dataDir);
  const target = join(dataDir, 'db');
  const holds = () => existsSync(target) && readdirSync(target).length > 0;
  if (holds())
    fail(
      `${dataDir} already holds a database (${target}). Restore into an empty DATA_DIR, or move that one away first.`,
    );
  const started = Date.now();
  const claim = await claimDataDir(dataDir, 'restore').catch((error: unknown) =>
    fail(error instanceof DataDirBusyError ? `${error.message}: stop it before restoring.` : String(error)),
  );
  const staging = join(dataDir, `db.restoring-${process.pid}`);
  let contents: Contents | null = null;
  let failure: unknown = null;
  try {
    rmSync(staging, { recursive: true, force: true });
    const client = await openSnapshot(file, staging);
    try {
      contents = await contentsOf(client, file);
    } finally {
      await client.close();
    }
    // Checked again under the claim: nothing may have put a database there meanwhile.
    if (holds()) throw new Error(`${target} was filled while restoring; nothing was changed`);
    tightenTree(staging);
    if (existsSync(target)) rmdirSync(target);
    renameSync(staging, target);
  } catch (error) {
    failure = error;
    rmSync(staging, { recursive: true, force: true });
  } finally {
    await claim.release();
  }
  if (failure || !contents) fail(`Restore failed: ${failure instanceof Error ? failure.message : String(failure)}`);
  const newest = committedMigrations().at(-1) ?? 0;
  console.log(
    `Restored ${file} (${megabytes(statSync(file).size)}) into ${target} in ${seconds(Date.now() - started)}: ` +
      `${contents.users} users, ${contents.trades} trades, ${contents.auditEvents} audit events.`,
  );
  if ((contents.latestMigration ?? 0) < newest)
    console.log(
      'The backup is from an earlier version: the next start applies the newer migrations (backing up first).',
    );
  if ((contents.latestMigration ?? 0) > newest)
    console.log('WARNING: the backup is from a newer version of the app than this one; start that version on it.');
  console.log(keyVerdict(dataDir, config.encryptionKey, contents));
  console.log(KEY_FILES_NOTE);
}

main().catch((error: unknown) => fail(`Restore failed: ${error instanceof Error ? error.message : String(error)}`));
