// The API as its own process for benchmarks, so the load generator and the server do not share one event loop.
// Started with IPC by bench/lib/spawn-server.ts; answers { port } once listening; stops on SIGTERM or disconnect.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, ENGINE: 'off', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0' });
  const database = await openDatabase(config);
  const app = await buildApp({ config, db: database.db, authChanges: await database.authChanges() });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
  // The parent asks for this process's CPU time around a run, to report server CPU per request.
  // And for the event loop's delay since the last 'loop-reset' (the loop the engine shares with the API): ms.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on('message', (message: unknown) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    if (message === 'loop-reset') loop.reset();
    if (message === 'loop')
      process.send?.({
        loop: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
      });
  });
  process.send?.({ port });
}

main().catch((error: unknown) => {
  console.error('bench api server failed:', error);
  process.exit(1);
});
