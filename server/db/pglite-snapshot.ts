// A consistent copy of the embedded database while it runs, and the way back from one. The backup file is a
// gzip-compressed tar of PGlite's data directory (DATA_DIR/db), packed with node-tar: `tar xzf` unpacks it too.
//
// Why it is consistent: PGlite is one PostgreSQL backend in this process, and its files are copied while PGlite's
// query lock is held (the lock its own dumpDataDir takes), so no statement runs in between. The copy is exactly what a
// crash at that instant would leave: every committed transaction is in the write-ahead log (written at commit), and
// an uncommitted one is rolled back when the copy is first opened, as after any crash. No CHECKPOINT is asked for first:
// it would shorten that replay, but it runs on the event loop (PGlite is WebAssembly in this thread) and waits for
// fsync, a stall of the server for a restore's few seconds.
//
// Why a copy first: the lock stops every query of the server, so it is held only for a file copy on the same file
// system (a reflink where the file system has them), never while the file is compressed or sent; and nothing of the
// database is held in memory. The copy needs the database's size in free space beside it, for as long as the backup is
// being written or downloaded.
import { constants, createReadStream, createWriteStream, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline as pipelineStreams, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { makePrivateDir } from '../security/data-dir';
import { pgliteStartParams } from './pglite-memory';

export const SNAPSHOT_CONTENT_TYPE = 'application/gzip';

/** Copies of the data directory being packed are named so, in the staging folder. */
const STAGING_PREFIX = '.staging-';
/** A running server's lock files: PostgreSQL's own base backups leave them out too. */
const NOT_COPIED = new Set(['postmaster.pid', 'postmaster.opts']);

/** Copies a directory tree, file by file on libuv's threads, so the event loop goes on meanwhile (prices, sockets). */
async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { mode: 0o700 });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (NOT_COPIED.has(entry.name)) continue;
    if (entry.isDirectory()) await copyTree(join(from, entry.name), join(to, entry.name));
    else await copyFile(join(from, entry.name), join(to, entry.name), constants.COPYFILE_FICLONE);
  }
}

/** Copies left by a process that died while packing one (only the process holding DATA_DIR makes them). */
async function removeStaleCopies(stagingRoot: string): Promise<void> {
  for (const name of await readdir(stagingRoot))
    if (name.startsWith(STAGING_PREFIX) && !name.startsWith(`${STAGING_PREFIX}${process.pid}-`))
      await rm(join(stagingRoot, name), { recursive: true, force: true });
}

/**
 * The running database `client` (whose data directory is `pgdata`) as a stream of its gzip-compressed tarball. The
 * files are copied at once into `stagingRoot` (a folder beside the data directory); the copy is removed when the
 * stream closes, read to its end or not.
 */
export async function snapshotPglite(client: PGlite, pgdata: string, stagingRoot: string): Promise<Readable> {
  // node-tar is loaded by the first backup, not by every start of the server.
  const { create: packTar } = await import('tar');
  makePrivateDir(stagingRoot);
  await removeStaleCopies(stagingRoot);
  const staging = join(await mkdtemp(join(stagingRoot, `${STAGING_PREFIX}${process.pid}-`)), 'db');
  // Deleting a copy of the whole database takes a while: never on the event loop.
  let removed: Promise<void> | null = null;
  const cleanUp = () => (removed ??= rm(dirname(staging), { recursive: true, force: true }));
  try {
    await client._runExclusiveQuery(() => copyTree(pgdata, staging));
  } catch (error) {
    await cleanUp();
    throw error;
  }
  // Compressed by Node's zlib on its worker threads, so the server's event loop only moves the bytes.
  const pack = packTar({ cwd: staging, portable: true }, readdirSync(staging).sort());
  const tarball = pipelineStreams(Readable.from(pack), createGzip({ level: 6 }), () => undefined);
  // Read to its end, or closed early (a download broken off): the copy goes, and a pack still reading it stops; what it
  // reports after that (files gone from under it) concerns nobody.
  const end = () => {
    pack.on('error', () => undefined);
    pack.destroy();
    void cleanUp();
  };
  tarball.once('end', end).once('close', end);
  return tarball;
}

/** A backup file's name with a sortable UTC time in it, e.g. `arbitrage-20250101T120000Z.tar.gz`. */
export function snapshotFileName(prefix: string, at = new Date()): string {
  return `${prefix}-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;
}

/**
 * Writes the stream to `file` whole or not at all: into a temporary file beside it, renamed over `file` once every byte
 * is on disk. Owner-only, as everything that holds the database. Answers the size in bytes.
 */
export async function writeSnapshotFile(snapshot: Readable, file: string): Promise<number> {
  const partial = join(dirname(file), `.${basename(file)}.partial-${process.pid}`);
  let bytes = 0;
  snapshot.on('data', (chunk: Buffer) => (bytes += chunk.length));
  try {
    await pipeline(snapshot, createWriteStream(partial, { mode: 0o600, flush: true }));
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return bytes;
}

export class SnapshotFileError extends Error {
  constructor(file: string, reason: string) {
    super(`${file} is not a backup of this app's embedded database: ${reason}`);
    this.name = 'SnapshotFileError';
  }
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

async function firstBytes(file: string, count: number): Promise<Buffer> {
  for await (const chunk of createReadStream(file, { start: 0, end: count - 1 })) return chunk as Buffer;
  return Buffer.alloc(0);
}

/**
 * Unpacks a backup file into `dir` (a new folder) and opens it: the first open replays the log as after a crash. The
 * caller closes the returned client. node-tar keeps every entry inside `dir` (no absolute paths, no `..`). `dir` is
 * removed again when this throws.
 */
export async function openSnapshot(file: string, dir: string): Promise<PGlite> {
  if (!(await firstBytes(file, 2)).equals(GZIP_MAGIC)) throw new SnapshotFileError(file, 'it is not gzip-compressed');
  const { extract: unpackTar } = await import('tar');
  makePrivateDir(dir);
  try {
    try {
      await unpackTar({ file, cwd: dir, strict: true });
    } catch (error) {
      throw new SnapshotFileError(file, `it is truncated or damaged (${(error as Error).message})`);
    }
    // Without PG_VERSION PGlite would quietly create an empty database in its place.
    if (!existsSync(join(dir, 'PG_VERSION')))
      throw new SnapshotFileError(file, 'it holds no PostgreSQL data directory');
    return await PGlite.create(dir, { startParams: pgliteStartParams() });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
