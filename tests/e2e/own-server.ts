// A product server of a test file's own, for the browser suites that need a market or a database the shared server
// (global-setup.ts) cannot give them: the live market against fakes, a seeded data folder, more pairs, a bot. It runs
// from the sources as the shared one does, on a free port and a data folder of its own, serving the client built
// once by the global setup; `stop` ends it and removes the folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { freePort } from './free-port';

import { copyPgliteTemplate } from '../server/helpers/pglite-template';

const ROOT = join(import.meta.dirname, '..', '..');

export interface OwnServer {
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the server with `env` over the embedded defaults (PGlite in its own folder, no Redis, warnings only) and
 * resolves once it listens. `prepare` fills the data folder (holding a migrated, empty database) before the start.
 */
export async function startOwnServer(
  name: string,
  env: Record<string, string>,
  prepare?: (dataDir: string) => Promise<unknown>,
): Promise<OwnServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `e2e-${name}-`));
  // These suites look at screens, not at a first start: the server opens a migrated copy instead of creating its
  // embedded database (many seconds of initdb and migrations).
  await copyPgliteTemplate(dataDir);
  await prepare?.(dataDir);
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'server/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        CLIENT_DIR: inject('clientDir'),
        SKIP_CLIENT_BUILD: '1',
        DATABASE_URL: '',
        REDIS_URL: '',
        ...env,
        DATA_DIR: dataDir,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const onData = (b: Buffer) => {
        out += b.toString();
        if (out.includes(`:${port}`) && /listening/i.test(out)) resolve();
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, dataDir, stop };
}
