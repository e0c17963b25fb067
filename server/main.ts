// The process: configuration, database, first admin, app, client build, listening, graceful shutdown.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { bootstrapAdmin, generatedPasswordNotice } from './http/admin/bootstrap';
import { buildClient, isClientStale } from './client/build';
import type { ClientBuildStatus } from './client/serve';
import { Subject } from 'rxjs';
import type { EngineEvent } from './engine/events';
import { attachRealtimeToApp } from './realtime';
import type { FastifyInstance } from 'fastify';
import { createEngine, lazyLogger } from './engine';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const database = await openDatabase(config);
  const boot = await bootstrapAdmin(database.db, config);
  if (boot.generatedPassword) console.log(`\n${generatedPasswordNotice(boot)}\n`);
  else if (boot.created) console.log(`First start: admin ${boot.email} created with the password from ADMIN_PASSWORD.`);

  // CLIENT_DIR: serve a build from elsewhere (the end-to-end suite builds into a private directory, so a rebuild of
  // the shared dist/ by another process on the machine cannot pull files from under a running test).
  const clientDir = process.env.CLIENT_DIR ? resolve(process.env.CLIENT_DIR) : join(ROOT, 'dist');
  // SKIP_CLIENT_BUILD=1 (tests that start the process for the API only): never spawn a client build.
  const skipBuild = process.env.SKIP_CLIENT_BUILD === '1';
  const clientBuild: ClientBuildStatus = { state: !skipBuild && isClientStale(ROOT, clientDir) ? 'building' : 'ready' };
  // Trading engine (server/engine): only with ENGINE=on. It is the app's price book and the source of engine events.
  let appRef: FastifyInstance | null = null;
  const trading = config.engine
    ? await createEngine({
        config,
        db: database.db,
        account: (userId) => (appRef as FastifyInstance).loadVenueAccount(userId),
        logger: lazyLogger(() => appRef?.log),
      })
    : null;
  const app = await buildApp({ config, db: database.db, clientDir, clientBuild, priceBook: trading?.engine, engine: trading?.engine ?? null });
  appRef = app;

  /** Things to stop on shutdown, newest first (engine, realtime gateway, ...). */
  const stoppers: Array<() => Promise<void>> = [];

  // ==== Engine and realtime gateway: started here by their owners, each pushing a stopper ========================
  // Realtime gateway (server/realtime): engine events → Socket.IO rooms on this server; it closes itself in the app's
  // preClose hook, before the server stops. The engine, where it runs, feeds it: engine.events$.subscribe(engineEvents).
  const engineEvents = new Subject<EngineEvent>();
  attachRealtimeToApp(app, engineEvents);
  if (trading) {
    trading.engine.events$.subscribe(engineEvents);
    stoppers.push(trading.stop);
  }

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      console.error(`${signal} again: exiting now.`);
      process.exit(1);
    }
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down');
    try {
      // Stop accepting connections and finish in-flight requests, then the engine, then the database.
      await app.close();
      for (const stop of stoppers.reverse()) await stop();
      await database.close();
      process.exit(0);
    } catch (error) {
      console.error('Shutdown failed:', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ host: config.host, port: config.port });
  console.log(`Arbitrage app listening on ${address} (database: ${database.kind}, market: ${config.market})`);
  if (trading) await trading.engine.start();

  if (clientBuild.state === 'building') {
    // Serve the API (and a "being built" page) at once; the app appears when the build finishes.
    const build = buildClient(ROOT, { info: (m) => app.log.info(m), error: (m) => app.log.error(m) });
    stoppers.push(async () => build.cancel());
    build.done.then(
      () => {
        clientBuild.state = 'ready';
      },
      (error: Error) => {
        clientBuild.state = 'failed';
        if (!shuttingDown) app.log.error(`client build failed; the API keeps running. ${error.message}`);
      },
    );
  }
}

main().catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
