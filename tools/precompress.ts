// Build step: every compressible file of the client build gets a brotli (.br, quality 11) and a gzip (.gz, level 9)
// sibling, written once here so the server sends stored bytes (server/http/client/index.ts, @fastify/static's
// preCompressed) and never compresses a response itself: the process that serves files also runs the engine.
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images, fonts (woff2) and archives are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|cjs|css|html|svg|json|webmanifest|txt|xml|map|wasm|ico)$/i;

export const ENCODINGS = [
  { extension: '.br', compress: (data: Buffer) => brotli(data, brotliOptions(data.length)) },
  { extension: '.gz', compress: (data: Buffer) => gzipAsync(data, { level: constants.Z_BEST_COMPRESSION }) },
] as const;

function brotliOptions(size: number) {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      // Text mode tunes the context modelling for UTF-8; the size hint lets brotli pick its window for the file.
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

export function isCompressible(file: string): boolean {
  return COMPRESSIBLE.test(file);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

export interface CompressedFile {
  file: string;
  bytes: number;
  /** Size of each written variant, by extension; a variant that would not be smaller is absent (and removed). */
  variants: Partial<Record<'.br' | '.gz', number>>;
}

/** Writes the compressed siblings of one file; a variant that would not be smaller than the file is not kept. */
export async function compressFile(file: string): Promise<CompressedFile> {
  const data = await readFile(file);
  const variants: CompressedFile['variants'] = {};
  await Promise.all(
    ENCODINGS.map(async ({ extension, compress }) => {
      const packed = await compress(data);
      // Serving a variant that is not smaller costs the client a decode for nothing; a stale one from an earlier
      // build into the same directory must not be served either.
      if (packed.length >= data.length) return rm(file + extension, { force: true });
      variants[extension] = packed.length;
      return writeFile(file + extension, packed);
    }),
  );
  return { file, bytes: data.length, variants };
}

/** Compresses every compressible file under `dir` (the client build), a few at a time (zlib's thread pool). */
export async function precompressDir(dir: string): Promise<CompressedFile[]> {
  const files = (await filesUnder(dir)).filter(isCompressible);
  const results: CompressedFile[] = [];
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      results.push(await compressFile(file));
    }
  };
  await Promise.all(Array.from({ length: 4 }, lane));
  return results.sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * The Vite plugin: runs after everything else has written its files (the service worker is generated in another
 * plugin's closeBundle), so sw.js and the precache manifest inside it are final when they are compressed. The .br and
 * .gz files never match the service worker's precache globs (sw/pwa-options.ts names extensions such as *.js).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (!outDir || !(await stat(outDir).catch(() => null))?.isDirectory()) return;
        await precompressDir(outDir);
      },
    },
  };
}
