// Process step at start: builds the PWA with Vite when dist/ is missing or older than any of its sources, so
// `npm start` alone is enough.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the client build reads; a change to any of these makes dist/ stale. */
export const CLIENT_SOURCES = [
  'src',
  'sw',
  'public',
  'contract',
  'index.html',
  'vite.config.ts',
  'manifest.webmanifest',
];

/** Newest modification time (ms) of a file or of any file under a directory; 0 when it does not exist. */
export function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function isClientStale(root: string, distDir = join(root, 'dist')): boolean {
  const builtIndex = join(distDir, 'index.html');
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return CLIENT_SOURCES.some((source) => newestMtime(join(root, source)) > builtAt);
}

export interface BuildLogger {
  info(message: string): void;
  error(message: string): void;
}

export interface ClientBuild {
  /** Resolves when vite build succeeded; rejects with its last output otherwise (or when cancelled). */
  done: Promise<void>;
  /** Stops the build (shutdown); a half-written dist/ is rebuilt on the next start because it stays stale. */
  cancel(): void;
}

/** Runs `vite build` in root as a child process. */
export function buildClient(root: string, log: BuildLogger): ClientBuild {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  log.info('Building the app (vite build)…');
  // NODE_ENV must be production whatever the parent runs under (vitest sets 'test'): otherwise Vite bundles React's
  // development build and import.meta.env.PROD is false in the app.
  const env = { ...process.env, NODE_ENV: 'production' };
  const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = new Promise<void>((resolve, reject) => {
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) {
        log.info('App built.');
        resolve();
      } else {
        reject(
          new Error(signal ? `vite build stopped by ${signal}` : `vite build exited with code ${code}:\n${output}`),
        );
      }
    });
  });
  return {
    done,
    cancel: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
