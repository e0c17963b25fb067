// The server compiled ahead of time: esbuild bundles server/main.ts (and the backtest worker's entry) into
// dist-server/, with every package left to node_modules, so a start loads plain JavaScript instead of transpiling
// hundreds of TypeScript files through tsx. Plain JavaScript itself, as it runs before anything can be transpiled;
// server/launch.js (npm start) calls it, its types are in compile.d.ts. Rebuilt only when a source it read changed.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const OUT_DIR = join(ROOT, 'dist-server');

/** Bundle name → source; run-in-worker.ts names 'replay-worker.js' beside main.js. */
export const ENTRIES = { main: 'server/main.ts', 'replay-worker': 'server/engine/replay/worker.ts' };

/** Read by the build without being a module: a change to any of them changes the output. */
export const BUILD_INPUTS = ['server/compile.js', 'tsconfig.json', 'package.json'];

/** What a build read, and when it started; a source modified after that makes the build stale. */
const STAMP = 'inputs.json';

/** @param {string} path */
function mtimeOrNull(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * True when dist-server/ has no complete build, or any file the last build read (its module graph, from esbuild's
 * metafile, plus BUILD_INPUTS) is missing or newer than the build's start.
 * @param {string} [root] @param {string} [outDir]
 */
export function isServerStale(root = ROOT, outDir = OUT_DIR) {
  /** @type {{ builtAt: number; inputs: string[] }} */
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(outDir, STAMP), 'utf8'));
  } catch {
    return true;
  }
  if (Object.keys(ENTRIES).some((name) => !existsSync(join(outDir, `${name}.js`)))) return true;
  return [...stamp.inputs, ...BUILD_INPUTS].some((input) => {
    const mtime = mtimeOrNull(join(root, input));
    return mtime === null || mtime > stamp.builtAt;
  });
}

/** @param {string} dir @param {Set<string>} keep */
function removeChunksBut(dir, keep) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) if (!keep.has(name)) rmSync(join(dir, name), { force: true });
}

/**
 * Bundles the server into outDir. Files are written to a private staging folder and renamed into place one by one
 * (each rename is atomic), the stamp last: a process starting meanwhile sees the old build or the new one, and an
 * interrupted build is simply stale.
 * @param {string} [root] @param {string} [outDir]
 * @returns {Promise<{ ms: number; inputs: number }>}
 */
export async function compileServer(root = ROOT, outDir = OUT_DIR) {
  const { build } = await import('esbuild');
  const builtAt = Date.now();
  const staging = join(outDir, `.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ENTRIES,
      outdir: staging,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Dynamic imports stay separate chunks, loaded when first imported: the Binance connector (ccxt, seconds to
      // load) only with a live market, as under tsx.
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      // For `NODE_OPTIONS=--enable-source-maps npm start`: stack traces then name the .ts sources. Not on by default:
      // Node would then read and parse the source map of every package module that ships one, on every start.
      sourcemap: 'linked',
      sourcesContent: false,
      metafile: true,
      logLevel: 'warning',
    });
    const written = readdirSync(staging, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(staging, join(entry.parentPath, entry.name)));
    for (const file of written) {
      mkdirSync(dirname(join(outDir, file)), { recursive: true });
      renameSync(join(staging, file), join(outDir, file));
    }
    // Chunks are named by content hash: the previous build's are no longer imported by anything.
    removeChunksBut(
      join(outDir, 'chunks'),
      new Set(written.filter((file) => file.startsWith(`chunks${sep}`)).map((file) => basename(file))),
    );
    const inputs = Object.keys(result.metafile.inputs);
    writeFileSync(join(outDir, STAMP), JSON.stringify({ builtAt, inputs }));
    return { ms: Date.now() - builtAt, inputs: inputs.length };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
