// A migrated, empty PGlite database folder shared by every test of a run that needs a fresh embedded database but
// is not about creating one: the server test files' databases and the end-to-end suite's servers. Creating a PGlite
// cluster (initdb in WASM) and migrating it takes many seconds on a busy machine; copying a ready one about one.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../server/db/client';
import { MIGRATIONS_FOLDER } from '../../../server/db/migrate';

/** Changes whenever a migration or the PGlite version changes, so a stale template is never reused. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(import.meta.dirname, '../../../node_modules/@electric-sql/pglite/package.json')));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(MIGRATIONS_FOLDER);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The template's folder: built once per set of migrations, then renamed into place atomically, so parallel test
 * files never see a half-written template.
 */
export async function pgliteTemplate(): Promise<string> {
  const root = join(tmpdir(), 'arb-pglite-templates');
  const template = join(root, migrationsFingerprint());
  if (existsSync(template)) return template;
  mkdirSync(root, { recursive: true });
  const scratch = join(root, `building-${process.pid}-${randomBytes(4).toString('hex')}`);
  const database = await openDatabase({ dataDir: scratch, databaseUrl: undefined });
  await database.close();
  try {
    renameSync(join(scratch, 'db'), template);
  } catch {
    // Another test file finished its template first; theirs is as good as ours.
  }
  rmSync(scratch, { recursive: true, force: true });
  return template;
}

/** Puts a copy of the template where the server keeps its embedded database inside `dataDir`. */
export async function copyPgliteTemplate(dataDir: string): Promise<void> {
  cpSync(await pgliteTemplate(), join(dataDir, 'db'), { recursive: true });
}
