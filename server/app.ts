// The Fastify application as a plugin tree, built without listening so tests can `inject` into it and the process can
// serve it. Order: context decorators → security headers → docs → error handling → auth hooks → routes.
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { validatorCompiler } from './http/plugins/validation';
import { Subject } from 'rxjs';
import type { Config } from './config';
import type { TradingHaltState } from '../contract/guard';
import type { SentNotification } from '../contract/notification-history';
import type { Db } from './db/client';
import type { AuthChangeFeed } from './db/auth-changes';
import { venueAccountLoader } from './db/repositories/credentials';
import { loadSecrets, type ServerSecrets } from './security/secrets';
import { createTokenService } from './security/tokens';
import { NO_PRICES, type PriceBook } from './engine/ports';
import './http/plugins/decorators';
import { backtestRoutes } from './http/backtest';
import { registerAuth } from './http/plugins/auth';
import { registerDocs } from './http/plugins/docs';
import { answerClientError, frameworkErrors, registerErrorHandling } from './http/plugins/errors';
import { registerSecurityHeaders } from './http/plugins/headers';
import { registerCompression } from './http/plugins/compression';
import { ignoreBodiesWhereNoneIsTaken } from './http/plugins/ignored-bodies';
import { loggerOptions, type LogSink } from './http/plugins/logging';
import { authRoutes } from './http/auth';
import {
  createCounters,
  createLoginLimiter,
  createSignIn,
  DEFAULT_LOGIN_LIMITS,
  identityChangeLimiter,
  type LoginLimits,
} from './sign-in';
import { userRoutes } from './http/users';
import { accountRemovalRoutes, adminRoutes } from './http/admin';
import { adminPairRoutes } from './http/admin/pairs';
import { registerClient, type ClientBuildStatus } from './http/client';
import { exchangeRoutes } from './http/exchanges';
import type { TradingFacade } from './http/plugins/engine-port';
import { tradingRoutes } from './http/trading';
import { tradeCommandRoutes } from './http/trades/commands';
import { tradeQueryRoutes } from './http/trades/queries';
import { tradeExportRoutes } from './http/trades/export';
import { balanceRoutes } from './http/balances';
import { metaRoutes } from './http/meta';
import { snapshotRoutes } from './http/snapshot';
import { notificationRoutes } from './http/notifications';
import { notificationHistoryRoutes } from './http/notifications/history';
import { createPushService, loadVapidKeys, withHistory, type EgressOptions, type PushService } from './notifications';
import { auditRoutes } from './http/audit';
import { telegramRoutes } from './http/telegram';
import type { TelegramService, TelegramTuning } from './telegram';
import { killSwitchRoutes } from './http/kill-switch';
import { twoFactorRoutes } from './http/two-factor';
import { TradingControl } from './trading';
import { scheduleAuditRetention } from './audit/retention';
import { backupRoutes } from './http/backup';
import { engineInstanceRoutes } from './http/engine';
import { within, type DatabaseProbe } from './db/probe';
import { latestAppliedMigration, type RawQuery } from './db/migrate';
import type { BackupSource } from './ops/backup/gate';
import { readinessCheck } from './ops/health';
import { createMetrics, type OpsMetrics } from './ops/metrics';
import { readDbFigures, sharedReading } from './ops/metrics/db-figures';
import { registerOps } from './ops/routes';
import { sql } from 'drizzle-orm';
import { enableSymbols } from './venues/enabled-pairs';

export interface BuildAppOptions {
  config: Config;
  db: Db;
  /** Where log lines go (tests capture them); stdout when omitted. */
  logSink?: LogSink;
  /** Latest prices from the engine; all null until one is given. */
  priceBook?: PriceBook;
  /** Keys; read from / generated in config.dataDir when omitted. */
  secrets?: ServerSecrets;
  loginLimits?: LoginLimits;
  /** Directory of the built PWA to serve; no client routes when omitted (API-only, tests). */
  clientDir?: string;
  /** State of a client build running in the background (process/run.ts); the fallback page tells visitors. */
  clientBuild?: ClientBuildStatus;
  /** The trading engine of this process; null/omitted on an API-only instance (ENGINE=off). */
  engine?: TradingFacade | null;
  /** Web push; built on the database with the configured or generated VAPID keys when omitted. */
  push?: PushService;
  /** The database's feed of revoked sessions and changed users (Database.authChanges); session checks are cached
   *  only with it. */
  authChanges?: AuthChangeFeed;
  /** Where the built push service may send and how it resolves names (tests: a local push service, its certificate). */
  pushEgress?: EgressOptions;
  /** The process's metrics (the process attaches the venues, the engine's events and the sockets); new when omitted. */
  metrics?: OpsMetrics;
  /** Readiness's question to the database (Database.probe); a query on `db` when omitted. */
  probe?: DatabaseProbe;
  /** Backups of the embedded database for the admin download; null/omitted on PostgreSQL. */
  backups?: BackupSource | null;
  /** How the Telegram bot waits and polls (tests: no real waiting); used only with TELEGRAM_BOT_TOKEN. */
  telegram?: TelegramTuning;
  /** This process's row in the instance registry (server/process/instance-registry.ts); omitted in tests. */
  instanceId?: string;
}

/** Emitted after sessions were revoked, so live sockets of that user can be re-checked at once. */
export interface Revocation {
  userId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every revocation (logout, password change, deactivation, deletion). */
    revocations$: Subject<Revocation>;
    /** Every change of the global kill switch saved through this instance; the realtime gateway announces it. */
    haltChanges$: Subject<TradingHaltState>;
    /** Prometheus metrics of this process (server/ops/metrics). */
    metrics: OpsMetrics;
    /** The Telegram bot (server/telegram); null without TELEGRAM_BOT_TOKEN. The process starts it. */
    telegram: TelegramService | null;
  }
}

/** Readiness through the app's own connection, when the process gives no probe of its own (tests). */
const probeOn =
  (db: Db): DatabaseProbe =>
  async (timeoutMs) => {
    const query: RawQuery = async (text) =>
      ((await db.execute(sql.raw(text))) as unknown as { rows: Array<Record<string, unknown>> }).rows;
    return { latestMigration: await within(latestAppliedMigration(query), timeoutMs, 'the database') };
  };

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logSink),
    bodyLimit: config.bodyLimit,
    // The client address (sign-in throttling, logs) from X-Forwarded-For only when TRUST_PROXY says whose to believe.
    // A hop count is given as proxy-addr's (address, hop) function, the form Fastify's types accept.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Ids from the client never reach the log unchecked.
    requestIdHeader: false,
    frameworkErrors,
    // A request must arrive whole in time: a client that sends its headers and then trickles (or never sends) its body
    // does not hold a connection for ever. Node checks the deadlines every connectionsCheckingInterval.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.floor(config.headersTimeoutMs / 2)),
    },
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const secrets = options.secrets ?? loadSecrets(config.dataDir, config.encryptionKey, config.tokenKey);
  app.decorate('config', config);
  // The pairs every layer iterates (checked against the market by the process before the app is built).
  enableSymbols(config.symbols);
  app.decorate('db', db);
  app.decorate('secrets', secrets);
  app.decorate('tokens', createTokenService(secrets.tokenKey));
  app.decorate('priceBook', options.priceBook ?? NO_PRICES);
  app.decorate('revocations$', new Subject<Revocation>());
  app.decorate('haltChanges$', new Subject<TradingHaltState>());
  app.decorate('engine', options.engine ?? null);
  app.decorate('trading', new TradingControl({ db, market: config.market, engine: options.engine ?? null }));
  app.decorate('loadVenueAccount', venueAccountLoader(db, secrets.encryptionKey));
  const devicePush =
    options.push ?? createPushService({ db, keys: loadVapidKeys(config), logger: app.log, egress: options.pushEgress });
  // With a bot, every notification also goes to the user's linked chat (server/telegram/notifier.ts).
  // The bot's library (grammY and its HTTP client) is loaded only when a token is configured: a start without one does
  // not pay for it.
  const token = config.telegramBotToken;
  const bot = token ? await import('./telegram') : null;
  const telegram =
    bot && token
      ? bot.createTelegram({ app, token, apiUrl: config.telegramApiUrl, devicePush, ...options.telegram })
      : null;
  app.decorate('telegram', telegram);
  // Every notification is also written down in the user's history and announced to their open apps.
  app.decorate('notificationsSent$', new Subject<{ userId: string; notification: SentNotification }>());
  app.decorate(
    'push',
    withHistory(bot && telegram ? bot.withTelegram(devicePush, telegram.notifier, app.log) : devicePush, {
      db,
      logger: app.log,
      onSent: (userId, notification) => app.notificationsSent$.next({ userId, notification }),
    }),
  );

  // Operations (server/ops): /healthz, /readyz, /metrics, and the HTTP duration hook that sees every request.
  const metrics = options.metrics ?? createMetrics();
  metrics.watch({ engine: options.engine ?? null, figures: sharedReading(() => readDbFigures(db), 1000, 1000) });
  app.decorate('metrics', metrics);
  registerOps(app, {
    metrics,
    metricsToken: config.metricsToken,
    readiness: readinessCheck({
      probe: options.probe ?? probeOn(db),
      ...(options.clientDir && {
        client: { dir: options.clientDir, build: options.clientBuild ?? { state: 'ready' } },
      }),
    }),
  });

  await registerSecurityHeaders(app, options.clientDir);
  registerCompression(app);
  ignoreBodiesWhereNoneIsTaken(app);
  await registerDocs(app);
  registerErrorHandling(
    app,
    options.clientDir ? await registerClient(app, options.clientDir, options.clientBuild) : undefined,
  );
  registerAuth(app, options.authChanges);

  const counters = createCounters(config.redisUrl);
  const loginLimits = options.loginLimits ?? DEFAULT_LOGIN_LIMITS;
  app.decorate(
    'signIn',
    createSignIn(app, {
      attempts: createLoginLimiter(loginLimits, counters),
      identityChanges: identityChangeLimiter(counters, loginLimits.namespace),
    }),
  );
  app.addHook('onClose', async () => {
    await telegram?.stop();
    await counters.close();
    app.revocations$.complete();
    app.haltChanges$.complete();
    app.notificationsSent$.complete();
  });

  await app.register(authRoutes, { prefix: '/api' });
  await app.register(userRoutes, { prefix: '/api' });
  await app.register(adminRoutes, { prefix: '/api' });
  await app.register(adminPairRoutes, { prefix: '/api' });
  await app.register(accountRemovalRoutes, { prefix: '/api' });

  await app.register(exchangeRoutes, { prefix: '/api' });
  await app.register(tradingRoutes, { prefix: '/api' });
  await app.register(tradeCommandRoutes, { prefix: '/api' });
  await app.register(tradeQueryRoutes, { prefix: '/api' });
  await app.register(tradeExportRoutes, { prefix: '/api' });
  await app.register(balanceRoutes, { prefix: '/api' });
  await app.register(metaRoutes, { prefix: '/api' });
  await app.register(snapshotRoutes, { prefix: '/api' });
  await app.register(backtestRoutes, { prefix: '/api' });
  await app.register(notificationRoutes, { prefix: '/api' });
  await app.register(notificationHistoryRoutes, { prefix: '/api' });
  await app.register(telegramRoutes, { prefix: '/api' });
  await app.register(auditRoutes, { prefix: '/api' });
  await app.register(killSwitchRoutes, { prefix: '/api' });
  await app.register(twoFactorRoutes, { prefix: '/api' });
  await app.register(backupRoutes, { prefix: '/api', backups: options.backups ?? null });
  await app.register(engineInstanceRoutes, { prefix: '/api', instanceId: options.instanceId ?? null });
  scheduleAuditRetention(app);
  // Realtime: the Socket.IO gateway attaches to app.server (see process/run.ts), using app.verifyToken.

  return app;
}
