// DATA_DIR holds the embedded database (password hashes, roles), the signing and encryption keys: it and everything in
// it are the server account's alone (directories 0700, files 0600). Checked and fixed at every start, because PGlite
// unpacks its initial cluster with world-writable files (0666) and a copied-in directory may carry any mode.
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** A DATA_DIR the server cannot use; its message says which directory and why, for the person starting the server. */
export class DataDirError extends Error {
  constructor(dir: string, reason: string) {
    super(`DATA_DIR ${dir} cannot be used: ${reason}. Set DATA_DIR to a directory this account can create and write.`);
    this.name = 'DataDirError';
  }
}

function reasonOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  switch (e.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return e.code ? `${e.code} (${e.message})` : String(error);
  }
}

/**
 * Creates `dir` and its missing parents one level at a time, new ones 0700. Node's own recursive mkdir loops forever
 * on a path under /proc (the parent exists, yet creating the child answers "no such file"), so it is not used here.
 */
export function makePrivateDir(dir: string): string {
  const path = resolve(dir);
  const missing: string[] = [];
  let probe = path;
  for (;;) {
    try {
      if (!statSync(probe).isDirectory()) throw new DataDirError(path, `${probe} is not a directory`);
      break;
    } catch (error) {
      if (error instanceof DataDirError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new DataDirError(path, reasonOf(error));
      missing.unshift(probe);
      const parent = dirname(probe);
      if (parent === probe) throw new DataDirError(path, 'no part of the path exists');
      probe = parent;
    }
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Another process made it in between: fine, as long as it is a directory (checked on the next level or below).
      if (code === 'EEXIST' && statSync(level).isDirectory()) continue;
      throw new DataDirError(
        path,
        code === 'ENOENT' ? `${level} cannot be created here (not a regular file system)` : reasonOf(error),
      );
    }
  }
  return path;
}

/** Sets directories to 0700 and files to 0600 under `dir` (itself included); symbolic links are left alone. */
export function tightenTree(dir: string): number {
  let changed = 0;
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return;
    const wanted = stats.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((stats.mode & 0o777) !== wanted) {
      chmodSync(path, wanted);
      changed += 1;
    }
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(resolve(dir));
  return changed;
}

/**
 * At start, before anything is opened: DATA_DIR exists (created if missing), is a writable directory, and holds
 * nothing that others can read or change. Returns how many entries had their mode tightened.
 */
export function prepareDataDir(dir: string): { path: string; tightened: number } {
  const path = makePrivateDir(dir);
  const probe = join(path, `.write-check-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx', PRIVATE_FILE_MODE));
    unlinkSync(probe);
  } catch (error) {
    throw new DataDirError(path, `cannot write in it, ${reasonOf(error)}`);
  }
  try {
    return { path, tightened: tightenTree(path) };
  } catch (error) {
    throw new DataDirError(path, `cannot make it owner-only, ${reasonOf(error)}`);
  }
}
