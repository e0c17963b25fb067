// `npm run backup -- FILE`: a consistent backup of the embedded database into FILE while the server runs. The
// running server holds the database, so it is asked for the backup (through its claim on DATA_DIR); when no server
// runs, this command claims DATA_DIR and opens the database itself. FILE is written whole or not at all.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteStartParams } from '../../db/pglite-memory';
import { snapshotPglite, writeSnapshotFile } from '../../db/pglite-snapshot';
import { BACKUPS_DIR } from '../../db/pre-migration-backup';
import { configOrExit, fail, KEY_FILES_NOTE, megabytes, seconds } from './cli';
import { askHolder, claimDataDir, DataDirBusyError, findHolder, type Holder } from './data-dir-claim';

/** A backup the running server streams; the whole file may take a while, so only a stall of this long fails it. */
const STALL_MS = 120_000;

async function fromServer(holder: Holder, file: string): Promise<number> {
  const res = await askHolder(holder, '/backup', STALL_MS);
  if (res.statusCode !== 200) {
    let text = '';
    for await (const chunk of res) text += String(chunk);
    const message = (() => {
      try {
        return (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        return text;
      }
    })();
    fail(`The running server (process ${holder.pid}) did not give a backup: ${message}`);
  }
  return writeSnapshotFile(res, file);
}

async function fromDataDir(dataDir: string, file: string): Promise<number> {
  const claim = await claimDataDir(dataDir, 'backup');
  try {
    const pgdata = join(dataDir, 'db');
    const client = await PGlite.create(pgdata, { startParams: pgliteStartParams() });
    try {
      return await writeSnapshotFile(await snapshotPglite(client, pgdata, join(dataDir, BACKUPS_DIR)), file);
    } finally {
      await client.close();
    }
  } finally {
    await claim.release();
  }
}

async function main(): Promise<void> {
  const [given, ...extra] = process.argv.slice(2);
  if (!given || extra.length > 0 || given === '--help')
    fail('Usage: npm run backup -- FILE   (FILE: where to write the backup, e.g. backup.tar.gz)');
  const config = configOrExit(process.env);
  if (config.databaseUrl)
    fail('DATABASE_URL is set: the data is in PostgreSQL. Back it up with pg_dump (README, Operations).');
  const file = resolve(given);
  if (!statSync(dirname(file), { throwIfNoEntry: false })?.isDirectory()) fail(`${dirname(file)} is not a directory`);
  const dataDir = resolve(config.dataDir);
  const started = Date.now();
  let from: string;
  let bytes: number;
  const holder = await findHolder(dataDir);
  if (holder?.role === 'server') {
    from = `from the running server (process ${holder.pid})`;
    bytes = await fromServer(holder, file);
  } else {
    if (holder) fail(new DataDirBusyError(dataDir, holder).message);
    if (!existsSync(join(dataDir, 'db', 'PG_VERSION'))) fail(`There is no embedded database in ${dataDir} to back up.`);
    from = `from ${join(dataDir, 'db')} (no server was running)`;
    try {
      bytes = await fromDataDir(dataDir, file);
    } catch (error) {
      // A server started in between: it holds the database now, so it is asked.
      if (!(error instanceof DataDirBusyError) || error.holder.role !== 'server') throw error;
      from = `from the running server (process ${error.holder.pid})`;
      bytes = await fromServer(error.holder, file);
    }
  }
  console.log(`Backup written to ${file}: ${megabytes(bytes)} in ${seconds(Date.now() - started)}, ${from}.`);
  console.log(KEY_FILES_NOTE);
}

main().catch((error: unknown) => fail(`Backup failed: ${error instanceof Error ? error.message : String(error)}`));
