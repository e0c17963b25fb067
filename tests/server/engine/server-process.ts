// Starts the real server process (server-main.ts: the process server/main.ts runs, on a market the test chooses)
// as a child process under tsx and talks to it over HTTP on loopback.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createPostgresDatabase, type Backend } from '../helpers/database';
import { copyPgliteTemplate } from '../helpers/pglite-template';
import type { TestMarket } from './server-main';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves with the exit code or signal. */
  exited: Promise<string>;
}

export async function startServer(env: Record<string, string>, market: TestMarket = {}): Promise<ServerProcess> {
  // One process: node with tsx's loader, not the tsx CLI, which runs the server in a child that SIGKILL would orphan.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/server/engine/server-main.ts', JSON.stringify(market)],
    {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SKIP_CLIENT_BUILD: '1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise<string>((res) => child.on('exit', (code, signal) => res(signal ?? String(code))));
  const url = await new Promise<string>((res, rej) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) res(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((how) => rej(new Error(`server exited (${how}) before listening:\n${output}`)));
  });
  return { child, url, output: () => output, exited };
}

export async function api(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{
  status: number;
  json: Record<string, unknown> & { token?: string; trades?: unknown[]; tradingEnabled?: boolean };
}> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json() };
}

/** Polls until `fn` gives a value, for states a server process reaches on its own; gives up after `withinMs`. */
export async function poll<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  withinMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The state of one test file's server processes: their data directory, database, and the process running now. */
export interface ProcessRun {
  dataDir: string;
  server: ServerProcess | null;
  /**
   * DATA_DIR (on PGlite holding a migrated, empty database), and on PostgreSQL the DATABASE_URL of a fresh database,
   * for the processes' environment.
   */
  env(backend: Backend): Promise<Record<string, string>>;
  /** Kills a process still running, drops the database, removes the directory (afterAll). */
  cleanup(): Promise<void>;
}

export function processRun(prefix: string): ProcessRun {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  let drop: (() => Promise<void>) | null = null;
  const run: ProcessRun = {
    dataDir,
    server: null,
    env: async (backend): Promise<Record<string, string>> => {
      if (backend !== 'postgres') {
        // These files are about what a running server does, not its first start (core/process.test.ts): the first
        // process opens a migrated copy instead of creating the embedded database.
        if (!existsSync(join(dataDir, 'db'))) await copyPgliteTemplate(dataDir);
        return { DATA_DIR: dataDir };
      }
      const database = await createPostgresDatabase();
      drop = database.drop;
      return { DATA_DIR: dataDir, DATABASE_URL: database.url };
    },
    cleanup: async () => {
      const server = run.server;
      if (server && server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return run;
}
