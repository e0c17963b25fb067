// Where the project lives on disk. The server runs either from its TypeScript sources (tsx: tests, `tsx server/main.ts`)
// or ahead-compiled into one file under dist-server/ (npm start, server/launch.js), so a path written relative to a
// source file's own location would be wrong in one of the two; the root is the nearest folder up with package.json.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder, found upwards from a module's URL (pass import.meta.url). */
export function projectRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`No package.json above ${fileURLToPath(moduleUrl)}`);
    dir = up;
  }
  return dir;
}

/** True when this code runs from the ahead-compiled bundle rather than its .ts sources (pass import.meta.url). */
export function isCompiled(moduleUrl: string): boolean {
  return !moduleUrl.endsWith('.ts');
}
