// A consistent copy of the embedded database while it runs, and the way back from one. The copy is PGlite's own
// tarball of its data directory (what `loadDataDir` reads), gzip-compressed: the backup file an operator keeps.
//
// Why it is consistent: PGlite is one PostgreSQL backend in this process, and `dumpDataDir` reads the files while it
// holds PGlite's query lock, so no statement runs in between. The files are then exactly what a crash at that instant
// would leave: every committed transaction is in the write-ahead log (written at commit), and an uncommitted one is
// rolled back when the copy is first opened, as after any crash. The CHECKPOINT before only keeps that replay short.
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pgliteStartParams } from './pglite-memory';

export const SNAPSHOT_CONTENT_TYPE = 'application/gzip';

/** The running database as a stream of its gzip-compressed tarball. The files are read at once; the stream is not. */
export async function snapshotPglite(client: PGlite): Promise<Readable> {
  await client.query('CHECKPOINT');
  const tar = await client.dumpDataDir('none');
  return Readable.fromWeb(tar.stream() as ReadableStream<Uint8Array>).pipe(createGzip({ level: 6 }));
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

async function readTarball(file: string): Promise<Buffer<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file)) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  if (!bytes.subarray(0, 2).equals(GZIP_MAGIC)) throw new SnapshotFileError(file, 'it is not gzip-compressed');
  try {
    return await promisify(gunzip)(bytes);
  } catch {
    throw new SnapshotFileError(file, 'it is truncated or damaged (gzip)');
  }
}

/** The entry names of a tar archive (ustar headers: name at 0, octal size at 124, 512-byte blocks). */
export function tarEntries(tar: Uint8Array): string[] {
  const names: string[] = [];
  const text = (from: number, length: number) =>
    Buffer.from(tar.subarray(from, from + length))
      .toString('latin1')
      .replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length;) {
    const name = text(at, 100);
    if (name === '') break;
    const prefix = text(at + 345, 155);
    const size = parseInt(text(at + 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) break;
    names.push(prefix ? `${prefix}/${name}` : name);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

/**
 * Unpacks a backup file into `dir` (which must not hold a database) and opens it: the first open replays the log as
 * after a crash. The caller closes the returned client. `dir` is left as it was found when this throws.
 */
export async function openSnapshot(file: string, dir: string): Promise<PGlite> {
  const tar = await readTarball(file);
  const names = tarEntries(tar);
  // Without PG_VERSION PGlite would quietly create an empty database in its place.
  if (!names.some((n) => n.replace(/^\/+/, '') === 'PG_VERSION'))
    throw new SnapshotFileError(file, 'it holds no PostgreSQL data directory');
  if (names.some((n) => n.split('/').includes('..'))) throw new SnapshotFileError(file, 'it names paths outside it');
  const made = !existsSync(dir);
  try {
    const client = await PGlite.create(dir, {
      startParams: pgliteStartParams(),
      loadDataDir: new Blob([tar], { type: 'application/x-tar' }),
    });
    return client;
  } catch (error) {
    if (made) rmSync(dir, { recursive: true, force: true });
    const reason = error instanceof Error ? error.message : String(error);
    throw new SnapshotFileError(file, /corrupt/i.test(reason) ? 'it is not a database tarball' : reason);
  }
}
