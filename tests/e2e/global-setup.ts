// One server for the whole end-to-end suite: build the client once, start `tsx server/main.ts` with a temp DATA_DIR,
// a free port, the simulated market with a fixed seed and a known admin; share its URL with the test files.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { copyPgliteTemplate } from '../server/helpers/pglite-template';
import { freePort } from './free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
    /** The client build the shared server serves; a file that starts its own server (live market) serves it too. */
    clientDir: string;
  }
}

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN_EMAIL = 'admin@e2e.test';
const ADMIN_PASSWORD = 'E2e-admin-password-1';

/** With DATABASE_URL set the suite runs on PostgreSQL, in a database of its own that is dropped afterwards. */
async function ownDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const base = process.env.DATABASE_URL;
  if (!base) return null;
  const { default: pg } = await import('pg');
  const name = `e2e_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

function waitForListening(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (b: Buffer) => {
      out += b.toString();
      if (out.includes(`:${port}`) && /listening/i.test(out)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
}

export default async function setup(project: TestProject) {
  // The client is built once into a private directory that the server serves (CLIENT_DIR, SKIP_CLIENT_BUILD): the
  // shared dist/ can be rebuilt at any moment by another process on the machine.
  // NODE_ENV is 'test' inside vitest; the build and the server must run as in production (React's production build).
  const prodEnv = { ...process.env, NODE_ENV: 'production' };
  const clientDir = mkdtempSync(join(tmpdir(), 'e2e-client-'));
  const build = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--logLevel',
      'warn',
      '--outDir',
      clientDir,
      '--emptyOutDir',
    ],
    { cwd: ROOT, stdio: 'inherit', env: prodEnv },
  );
  if (build.status !== 0) throw new Error('vite build failed');

  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const port = await freePort();
  const db = await ownDatabase();
  // The suite is not about a first start: on PGlite the server opens a migrated copy instead of creating its
  // database (many seconds of initdb and migrations).
  if (!db) await copyPgliteTemplate(dataDir);
  const env: NodeJS.ProcessEnv = {
    ...prodEnv,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    MARKET: 'sim',
    SIM_SEED: '42',
    PRICE_HZ: '4',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    CLIENT_DIR: clientDir,
    SKIP_CLIENT_BUILD: '1',
  };
  if (db) env.DATABASE_URL = db.url;
  else delete env.DATABASE_URL;
  delete env.REDIS_URL;

  const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForListening(child, port);

  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('adminEmail', ADMIN_EMAIL);
  project.provide('adminPassword', ADMIN_PASSWORD);
  project.provide('clientDir', clientDir);

  return async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(clientDir, { recursive: true, force: true });
  };
}
