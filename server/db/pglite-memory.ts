// The embedded database's memory. PGlite is PostgreSQL compiled to WebAssembly: its memory only ever grows, and what
// it holds counts in full towards the server's resident size. Two things made a fresh server about 940 MB:
// - PostgreSQL's default shared_buffers (128 MB) and the allocations sized from it; this app's data is small and the
//   operating system caches the files PGlite reads anyway, so 16 MB of buffers loses nothing measurable;
// - initdb, which PGlite runs in the same process on first start (its own WebAssembly instance, about 400 MB more,
//   never given back). A new cluster is therefore created by a short-lived child process, which takes the memory
//   with it when it exits.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { projectRoot } from '../paths';

/** PostgreSQL settings for the embedded database, added to PGlite's own start parameters. */
export const PGLITE_MEMORY_SETTINGS = [
  'shared_buffers=16MB',
  'maintenance_work_mem=16MB',
  'work_mem=4MB',
  'temp_buffers=4MB',
];

export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, ...PGLITE_MEMORY_SETTINGS.flatMap((setting) => ['-c', setting])];
}

/** The child's program: create the cluster in the given directory, close it, exit. Plain ESM: no TypeScript loader. */
const CREATE_CLUSTER = `
const [dir] = process.argv.slice(1);
const { PGlite } = await import('@electric-sql/pglite');
const db = await PGlite.create(dir);
await db.close();
`;

/** Creates a PGlite cluster in `dir` in a child process when there is none yet. */
export function createClusterOutOfProcess(dir: string): void {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  // Run from the project's root, where the package resolves as it does for this process.
  const root = projectRoot(import.meta.url);
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', CREATE_CLUSTER, resolve(dir)], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (result.status !== 0) {
    throw new Error(
      `Could not create the embedded database in ${dir}: ${(result.stderr || result.error?.message || `exit ${String(result.status)}`).trim()}`,
    );
  }
}
