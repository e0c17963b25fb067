// `npm start`: the server process (server/process/run.ts) on this process's environment.
import { runServer } from './process/run';

runServer({ env: process.env }).catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
