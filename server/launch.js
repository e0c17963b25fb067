// `npm start`: compiles the server ahead when its sources changed since the last build (server/compile.js), then runs
// the compiled server/main.ts. Tests and tools that run `tsx server/main.ts` get the same server from its sources.
import module from 'node:module';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { compileServer, isServerStale, OUT_DIR } from './compile.js';

if (isServerStale()) {
  console.log('Compiling the server (esbuild)…');
  try {
    const { ms, inputs } = await compileServer();
    console.log(`Server compiled: ${inputs} files in ${ms} ms.`);
  } catch (error) {
    console.error('Failed to compile the server:', error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
// Most of a start is compiling the packages' JavaScript; Node 22.1+ can keep V8's code cache of it on disk between
// starts (Node 20 has no such API: there this does nothing).
module.enableCompileCache?.();
await import(pathToFileURL(join(OUT_DIR, 'main.js')).href);
