// The process, step by step: configuration, database, first admin, app (with the engine where it runs), realtime
// gateway, spread history recorder, listening, engine start, client build, graceful shutdown. server/main.ts runs
// it; a test may run it with its own market (server/engine's EngineSetup) to reach a state quickly.
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { buildApp } from '../app';
import { ConfigError, loadConfig, type Config } from '../config';
import { openDatabase } from '../db/client';
import { projectRoot } from '../paths';
import { venueAccountLoader } from '../db/repositories/credentials';
import { createEngine, type EngineSetup } from '../engine';
import { attachRealtimeToApp } from '../realtime';
import { startPushBridge } from '../notifications';
import { DataDirError, prepareDataDir } from '../security/data-dir';
import { loadSecrets } from '../security/secrets';
import { pricesOf, startSpreadRecorder } from '../spread-history/recorder';
import { startBookRecorder } from '../spread-history/book-recorder';
import { costFloor } from '../../contract/costs';
import { SIM_PROFILE_PARAMS } from '../venues/sim/profiles';
import { enableSymbols } from '../venues/enabled-pairs';
import { offeredPairs, pairProblems } from '../venues/pair-check';
import { bootstrapAdmin, generatedPasswordNotice } from './first-admin';
import { safeOutput } from './output';
import { buildClient, isClientStale } from './pwa-build';
import type { ClientBuildStatus } from '../http/client';
import { engineStopRecorder } from '../trading';
import { backupGate } from '../ops/backup/gate';
import { claimDataDir, DataDirBusyError, type Claim } from '../ops/backup/data-dir-claim';
import { createMetrics, meterVenues } from '../ops/metrics';
import { startInstanceRegistry } from './instance-registry';

const ROOT = projectRoot(import.meta.url);

/** Longest a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_LIMIT_MS = 15_000;

export interface ProcessOptions {
  env: Record<string, string | undefined>;
  /** The engine's market; the configured one (MARKET, SIM_PROFILE) when omitted. */
  market?: Pick<EngineSetup, 'simParams' | 'tradeOn'>;
}

function readConfig(env: ProcessOptions['env']): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * The configured pairs (SYMBOLS) as the market offers them: a pair a venue says it lacks (or the simulated market does
 * not model) stops the start with a message naming it. A venue that cannot be asked does not: a restart while a venue
 * is down must still come up to recover and manage the open trades, and the connectors refuse what a venue does not
 * offer when they reach it; the start says so in the log.
 */
async function checkPairs(config: Config): Promise<void> {
  let problems: string[] = [];
  try {
    problems = pairProblems(await offeredPairs(config, config.symbols), config.market);
  } catch (error) {
    console.warn(
      `SYMBOLS could not be checked against the venues (${error instanceof Error ? error.message : String(error)}); starting with ${config.symbols.join(', ')} as configured`,
    );
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  enableSymbols(config.symbols);
}

/** DATA_DIR usable and owner-only before anything opens it; otherwise a clear message and exit code 1. */
function readyDataDir(dir: string): void {
  try {
    const { path, tightened } = prepareDataDir(dir);
    if (tightened > 0)
      console.log(`DATA_DIR ${path}: made ${tightened} entries owner-only (directories 0700, files 0600).`);
  } catch (error) {
    if (error instanceof DataDirError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * The embedded database is opened by one process at a time (server/ops/backup/data-dir-claim.ts); a second server, or
 * a start during a restore, stops with a message. On PostgreSQL DATA_DIR holds only keys and is not claimed.
 */
async function claimEmbeddedDatabase(config: Config): Promise<Claim | null> {
  if (config.databaseUrl) return null;
  try {
    return await claimDataDir(resolve(config.dataDir), 'server');
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      console.error(`${error.message}: its embedded database cannot be opened twice. Stop that process first.`);
      process.exit(1);
    }
    throw error;
  }
}

export async function runServer({ env, market }: ProcessOptions): Promise<void> {
  // Log lines go to stdout without ever blocking on it; console output (start-up notices) shares its stream, whose
  // errors (EPIPE once the reader has gone) are ignored by the same listener.
  const logSink = safeOutput(process.stdout);
  safeOutput(process.stderr);
  const config = readConfig(env);
  await checkPairs(config);
  // Whatever this process creates (database files, keys, logs) is the server account's alone.
  process.umask(0o077);
  readyDataDir(config.dataDir);
  const claim = await claimEmbeddedDatabase(config);
  const database = await openDatabase(config);
  if (database.preMigrationBackup) {
    const { file, pending } = database.preMigrationBackup;
    console.log(`Before applying ${pending} pending migration(s), the database was backed up to ${file}.`);
  }
  const boot = await bootstrapAdmin(database.db, config);
  if (boot.generatedPassword) console.log(`\n${generatedPasswordNotice(boot)}\n`);
  else if (boot.created) console.log(`First start: admin ${boot.email} created with the password from ADMIN_PASSWORD.`);

  // CLIENT_DIR: serve a build from elsewhere (the end-to-end suite builds into a private directory, so a rebuild of
  // the shared dist/ by another process on the machine cannot pull files from under a running test).
  const clientDir = env.CLIENT_DIR ? resolve(env.CLIENT_DIR) : join(ROOT, 'dist');
  // SKIP_CLIENT_BUILD=1 (tests that start the process for the API only): never spawn a client build.
  const skipBuild = env.SKIP_CLIENT_BUILD === '1';
  const clientBuild: ClientBuildStatus = { state: !skipBuild && isClientStale(ROOT, clientDir) ? 'building' : 'ready' };

  // The engine signs orders with credentials it reads itself; the app shows their masks. Both from the same keys.
  const secrets = loadSecrets(config.dataDir, config.encryptionKey, config.tokenKey);
  const loadVenueAccount = venueAccountLoader(database.db, secrets.encryptionKey);
  // Prometheus metrics (server/ops/metrics): the venues as the engine trades on them are metered; the engine's events,
  // the sockets and the pool are attached below, and GET /metrics serves them all.
  const metrics = createMetrics();
  // Trading engine (server/engine): only with ENGINE=on. It is the app's price book and the source of engine events.
  const trading = config.engine
    ? await createEngine({
        config,
        db: database.db,
        account: loadVenueAccount,
        recordStop: engineStopRecorder(database.db),
        metrics: metrics.engine,
        simParams: SIM_PROFILE_PARAMS[config.simProfile],
        ...market,
        tradeOn: (venues) =>
          meterVenues(market?.tradeOn?.(venues) ?? { binance: venues.binance, deriv: venues.deriv }, metrics.families),
      })
    : null;
  const instanceId = randomUUID();
  // Backups of the embedded database while it runs: the admin download and `npm run backup` (through the claim).
  const backups = database.snapshot ? backupGate(database.snapshot) : null;
  const app = await buildApp({
    config,
    db: database.db,
    authChanges: await database.authChanges(),
    logSink,
    secrets,
    clientDir,
    clientBuild,
    priceBook: trading?.engine,
    engine: trading?.engine ?? null,
    metrics,
    probe: database.probe,
    backups,
    instanceId,
  });
  // This instance in the registry admins read (GET /api/admin/engine): its host, start, engine and shards.
  const registry = startInstanceRegistry({
    id: instanceId,
    db: database.db,
    engine: () => trading?.engine ?? null,
    shardCount: config.engineShards,
    logger: app.log,
  });
  if (backups) claim?.serveBackups(backups);

  /** Things to stop on shutdown, newest first (engine, client build, ...). */
  const stoppers: Array<() => Promise<void>> = [registry.stop];

  // Realtime gateway (server/realtime): engine events → Socket.IO rooms on this server; it closes itself in the app's
  // preClose hook, before the server stops. Without an engine here it still carries other instances' events (Redis).
  const realtime = attachRealtimeToApp(app, trading?.engine.events$);
  metrics.watch({ realtime: { connections: () => realtime.io.engine.clientsCount }, pool: database.poolStats });
  if (trading) {
    stoppers.push(trading.stop);
    const counting = metrics.countEvents(trading.engine.events$);
    stoppers.push(async () => counting.unsubscribe());
    // Spread history: the engine's prices, one sample a second, recorded while this instance leads the engine (with
    // engine shards: while it holds shard 0). It stops before the engine (stoppers run newest first), writing what it
    // still holds.
    const recorder = startSpreadRecorder({
      db: database.db,
      prices$: pricesOf(trading.engine.events$),
      isLeader: () => trading.engine.leadsShared,
      retentionDays: config.spreadHistoryDays,
      logger: app.log,
    });
    stoppers.push(recorder.stop);
    // The books the engine decided on, for backtests that replay what it saw (every tick near a threshold). With
    // engine shards the holder of shard 0 records, as it does the spread history.
    const books = startBookRecorder({
      db: database.db,
      ticks$: trading.engine.ticks$,
      levels: trading.engine.decisions,
      floor: costFloor(trading.engine.params, trading.engine.params.defaultTakerFee),
      isLeader: () => trading.engine.leadsShared,
      retentionDays: config.spreadHistoryDays,
      logger: app.log,
    });
    stoppers.push(books.stop);
    // Web push for trade outcomes, pauses and halts: sent by the instance that leads the engine (with engine shards:
    // the one trading the user, the only one raising the user's events), once per event.
    const pushBridge = startPushBridge({
      events$: trading.engine.events$,
      isLeader: () => trading.engine.isTrading,
      push: app.push,
      logger: app.log,
    });
    stoppers.push(async () => pushBridge.unsubscribe());
  }

  let shuttingDown = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (shuttingDown) {
      console.error(`${signal} again: exiting now.`);
      process.exit(1);
    }
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down');
    // Whatever holds the shutdown up (a client that never lets go, a stuck close), the process ends.
    setTimeout(() => {
      console.error(`${signal}: shutdown did not finish within ${SHUTDOWN_LIMIT_MS / 1000} s; exiting.`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    try {
      // Stop accepting connections and finish in-flight requests, then the engine, then the database.
      await app.close();
      for (const stop of stoppers.reverse()) await stop();
      await database.close();
      await claim?.release();
      process.exit(exitCode);
    } catch (error) {
      console.error('Shutdown failed:', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (config.databaseUrl && !config.vapidPublicKey) {
    // Each instance would generate its own pair in its own DATA_DIR; a device subscribed through one instance's key is
    // refused when the engine leader signs with another's.
    app.log.warn(
      'DATABASE_URL is set but VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are not: with more than one instance, give them all the same pair (README, Notifications)',
    );
  }

  const address = await app.listen({ host: config.host, port: config.port });
  console.log(
    `Arbitrage app listening on ${address} (database: ${database.kind}, market: ${config.market === 'sim' ? `simulated, ${config.simProfile}` : 'live'})`,
  );
  if (trading)
    await trading.start(app.log, {
      onHeld: registry.beat,
      // With engine shards, an instance whose lock session died cannot tell which of its trades another instance took
      // over: it stops (exit code 1) so that its supervisor starts it afresh, recovering from the database.
      onFenced: () => {
        app.log.error('the engine shard locks were lost: shutting down so that a clean start recovers the trades');
        void shutdown('engine shard locks lost', 1);
      },
    });
  // The Telegram bot (TELEGRAM_BOT_TOKEN): its token checked with getMe; it polls here only while this instance leads
  // the engine. Not awaited: an unreachable Telegram delays nothing else (it is retried with backoff).
  void app.telegram?.start({ poll: trading !== null, isLeader: () => trading?.engine.leadsShared ?? false });
  // The generated password again, as the last start-up line: the log lines since its first print (and the client
  // build's) must not scroll it away before the operator copies it.
  const repeatNotice = () => {
    if (boot.generatedPassword && !shuttingDown) console.log(`\n${generatedPasswordNotice(boot)}\n`);
  };

  if (clientBuild.state !== 'building') repeatNotice();
  else {
    // Serve the API (and a "being built" page) at once; the app appears when the build finishes.
    const build = buildClient(ROOT, { info: (m) => app.log.info(m), error: (m) => app.log.error(m) });
    stoppers.push(async () => build.cancel());
    build.done.then(
      () => {
        clientBuild.state = 'ready';
        repeatNotice();
      },
      (error: Error) => {
        clientBuild.state = 'failed';
        if (!shuttingDown) app.log.error(`client build failed; the API keeps running. ${error.message}`);
        repeatNotice();
      },
    );
  }
}
