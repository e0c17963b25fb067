// Who holds DATA_DIR's embedded database. PGlite is a library, not a server: two processes that open one data
// directory both write it and corrupt it. So whoever opens it (the server, or `npm run backup`/`restore` when no
// server runs) first claims DATA_DIR: it listens on a loopback port and writes that port, with a fresh random key, to
// DATA_DIR/ops-endpoint.json (owner-only, like the directory). Another process reads the file and asks the port; only
// the holder answers with the key, so a live holder is told apart from the file of one that died (nobody answers, or
// some other program that took the port does, without the key). The server also answers `npm run backup` there.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SNAPSHOT_CONTENT_TYPE } from '../../db/pglite-snapshot';
import { bearerMatches } from '../bearer';
import { BackupBusyError, type BackupSource } from './gate';

export const CLAIM_FILE = 'ops-endpoint.json';
const CLAIM_LOCK = '.ops-claim.lock';
/** A claim lock older than this was left by a process that died while claiming. */
const STALE_LOCK_MS = 30_000;

export type ClaimRole = 'server' | 'backup' | 'restore';

export interface Holder {
  pid: number;
  role: ClaimRole;
  port: number;
  key: string;
}

const WHO: Record<ClaimRole, string> = {
  server: 'a running server',
  backup: 'a backup (npm run backup)',
  restore: 'a restore (npm run restore)',
};

export class DataDirBusyError extends Error {
  constructor(
    dataDir: string,
    readonly holder: Holder,
  ) {
    super(`DATA_DIR ${dataDir} is in use by ${WHO[holder.role]}, process ${holder.pid}`);
    this.name = 'DataDirBusyError';
  }
}

/** A GET to the holder's port with its key; resolves with the response (the caller reads or drains it). */
export function askHolder(holder: Pick<Holder, 'port' | 'key'>, path: string, timeoutMs = 2000) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: holder.port, path, headers: { authorization: `Bearer ${holder.key}` } },
      resolve,
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end();
  });
}

async function readJson(res: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of res) text += String(chunk);
  return JSON.parse(text);
}

/** The live holder of DATA_DIR, or null when none (no claim file, or its process no longer answers as the holder). */
export async function findHolder(dataDir: string): Promise<Holder | null> {
  let claimed: Holder;
  try {
    claimed = JSON.parse(readFileSync(join(dataDir, CLAIM_FILE), 'utf8')) as Holder;
  } catch {
    return null;
  }
  try {
    const res = await askHolder(claimed, '/whoami');
    const answer = res.statusCode === 200 ? ((await readJson(res)) as Partial<Holder>) : (res.resume(), null);
    return answer?.pid === claimed.pid && answer.role === claimed.role ? claimed : null;
  } catch {
    return null;
  }
}

/** Runs `work` while holding DATA_DIR's claim lock (a directory: its creation is atomic). */
async function withClaimLock<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  const lock = join(dataDir, CLAIM_LOCK);
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock, { mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else if (waited > STALE_LOCK_MS) throw new Error(`DATA_DIR ${dataDir}: ${CLAIM_LOCK} is held by another process`);
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmdirSync(lock);
  }
}

export interface Claim {
  /** From now on `npm run backup` gets its backup from this process (the server, once its database is open). */
  serveBackups(source: BackupSource): void;
  /** Stops answering and removes the claim file. */
  release(): Promise<void>;
}

const answer = (res: ServerResponse, status: number, body: object) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Claims DATA_DIR for this process; rejects with DataDirBusyError while another process holds it. */
export function claimDataDir(dataDir: string, role: ClaimRole): Promise<Claim> {
  return withClaimLock(dataDir, async () => {
    const holder = await findHolder(dataDir);
    if (holder) throw new DataDirBusyError(dataDir, holder);
    const key = randomBytes(32).toString('hex');
    let backups: BackupSource | null = null;
    const server: Server = createServer((req, res) => {
      if (!bearerMatches(req.headers.authorization, key)) return answer(res, 401, { message: 'Unauthorized' });
      if (req.method !== 'GET') return answer(res, 405, { message: 'Method not allowed' });
      if (req.url === '/whoami') return answer(res, 200, { pid: process.pid, role });
      if (req.url !== '/backup') return answer(res, 404, { message: 'Not found' });
      if (!backups) return answer(res, 503, { message: 'The server is starting; try again in a moment' });
      backups.take().then(
        (stream) => {
          res.writeHead(200, { 'content-type': SNAPSHOT_CONTENT_TYPE });
          stream.pipe(res);
          res.on('close', () => stream.destroy());
        },
        (error: unknown) =>
          answer(res, error instanceof BackupBusyError ? 409 : 500, {
            message: error instanceof Error ? error.message : String(error),
          }),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    // The process's own tasks end it, never this port.
    server.unref();
    const record: Holder = { pid: process.pid, role, port: (server.address() as AddressInfo).port, key };
    const file = join(dataDir, CLAIM_FILE);
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(record), { mode: 0o600 });
    renameSync(partial, file);
    return {
      serveBackups: (source) => void (backups = source),
      release: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        try {
          if ((JSON.parse(readFileSync(file, 'utf8')) as Holder).key === key) rmSync(file, { force: true });
        } catch {
          // Gone already.
        }
      },
    };
  });
}
