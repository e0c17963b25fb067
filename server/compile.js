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

/**
 * Packages bundled into dist-server/ (tree-shaken) instead of loaded from node_modules: pure ES-module libraries that
 * only the server's own code imports, so one copy of each exists in the process (zod with the provider that checks its
 * schemas' classes). Loaded from node_modules they cost a start hundreds of small files to resolve, read and compile
 * (rxjs's CommonJS build alone is 224, each also scanned for its exports; date-fns's index 300). Everything else,
 * CommonJS packages and those that read files beside their own (PGlite's WebAssembly), stays in node_modules.
 */
export const BUNDLED_PACKAGES = [
  'rxjs',
  'drizzle-orm',
  'zod',
  'fastify-type-provider-zod',
  'jose',
  'date-fns',
  'decimal.js',
];

/** A package name from a bare import path ('drizzle-orm/pg-core' → 'drizzle-orm', '@scope/x/y' → '@scope/x'). @param {string} path */
function packageOf(path) {
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * esbuild's `packages: 'external'` but for BUNDLED_PACKAGES; rxjs from its ES-module build (its package.json sends
 * Node to the CommonJS one, which cannot be tree-shaken). zod's `locales` namespace (every language's messages, half
 * of zod's code) carries only English, the one zod sets by default: the server's messages are the contract's own
 * words (contract/field-messages.ts) and it never switches zod's language.
 * @returns {import('esbuild').Plugin}
 */
function externalPackagesBut() {
  return {
    name: 'external-packages-but',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
          ? { path: join(dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-english' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'zod-english' }, (args) => ({
        contents: `export { default as en } from ${JSON.stringify(args.path)};`,
        resolveDir: dirname(args.path),
      }));
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'resolving') return undefined;
        if (!BUNDLED_PACKAGES.includes(packageOf(args.path))) return { path: args.path, external: true };
        if (args.path !== 'rxjs') return undefined;
        // The `es2015` entry of rxjs's exports: the ES-module build (dist/esm/index.js).
        const { path, errors } = await build.resolve('rxjs', {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: 'resolving',
        });
        return errors.length > 0 ? { errors } : { path: path.replace(/dist[\\/]cjs[\\/]/, 'dist/esm/') };
      });
    },
  };
}

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
      plugins: [externalPackagesBut()],
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
    // Files on disk only: a plugin's virtual module ('zod-english:…') has no file of its own to look at (the file it
    // re-exports is an input too), and a path that cannot be found would make every build stale at once.
    const inputs = Object.keys(result.metafile.inputs).filter((input) => !/^[a-z-]+:/.test(input));
    writeFileSync(join(outDir, STAMP), JSON.stringify({ builtAt, inputs }));
    return { ms: Date.now() - builtAt, inputs: inputs.length };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
