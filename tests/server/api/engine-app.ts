// The whole API as a server process runs it — the trading engine included (simulated market, fixed seed) — on a
// fresh database, for the suites that must reach every endpoint: the fuzz and the authorization matrix.
// (The shared helper builds an API-only app, where the trading routes rightly answer 503.)
import { engineStopRecorder } from '../../../server/trading';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { PublicUser } from '../../../contract/entities';
import { buildApp } from '../../../server/app';
import { loadConfig, type Config } from '../../../server/config';
import { venueAccountLoader } from '../../../server/db/repositories/credentials';
import { createEngine } from '../../../server/engine';
import type { ArbitrageEngine } from '../../../server/engine/engine';
import { bootstrapAdmin } from '../../../server/process/first-admin';
import type { Db } from '../../../server/db/client';
import { createSession } from '../../../server/db/repositories/sessions';
import type { ResolveHost } from '../../../server/notifications';
import { loadSecrets } from '../../../server/security/secrets';
import { openTestDatabase, type Backend } from '../helpers/database';

export const ADMIN_EMAIL = 'admin@example.test';
export const ADMIN_PASSWORD = 'admin-password-for-api-suites';
export const USER_PASSWORD = 'user-password-123';

export interface Actor {
  user: PublicUser;
  token: string;
  password: string;
}

export interface RequestOptions {
  token?: string;
  /** An object is sent as JSON; a string is sent as it is (with the content type given in headers). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface EngineApp {
  app: FastifyInstance;
  /** The engine behind the app (its events, for a suite that waits for a trade). */
  engine: ArbitrageEngine;
  db: Db;
  config: Config;
  admin: Actor;
  request(method: string, url: string, options?: RequestOptions): Promise<LightMyRequestResponse>;
  signIn(login: string, password: string): Promise<Actor>;
  createUser(role?: 'user' | 'admin'): Promise<Actor>;
  /**
   * A new session for an actor, made as a sign-in makes one but without the password check, so that a suite that
   * provokes the sign-in rate limit on purpose can still renew a session it ended.
   */
  newSession(actor: Actor): Promise<Actor>;
  close(): Promise<void>;
}

let counter = 0;

/** push.example.test and push.example.com stand for a push service on the internet; other names do not resolve. */
const resolveTestNames: ResolveHost = async (hostname) => {
  if (hostname === 'push.example.test' || hostname === 'push.example.com')
    return [{ address: '93.184.215.14', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** `env`: more configuration (SYMBOLS, TRADE_MAX_HOLD_MS, ...) over the suites' own. */
export async function createEngineApp(backend: Backend, env: Record<string, string> = {}): Promise<EngineApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-suite-'));
  const database = await openTestDatabase(backend, dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    ENGINE: 'on',
    MARKET: 'sim',
    SIM_SEED: '7',
    ...(database.url && { DATABASE_URL: database.url }),
    ...env,
  });
  await bootstrapAdmin(database.db, config);
  const secrets = loadSecrets(config.dataDir, config.encryptionKey, config.tokenKey);
  const trading = await createEngine({
    config,
    db: database.db,
    account: venueAccountLoader(database.db, secrets.encryptionKey),
    recordStop: engineStopRecorder(database.db),
  });
  const app = await buildApp({
    config,
    db: database.db,
    secrets,
    priceBook: trading.engine,
    engine: trading.engine,
    // The suites' push endpoints name hosts of a public address that nothing here ever sends to; no DNS is asked.
    pushEgress: { resolve: resolveTestNames },
  });
  await app.ready();
  await trading.start(app.log);

  const request: EngineApp['request'] = (method, url, { token, body, headers } = {}) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: { ...(token !== undefined && { authorization: `Bearer ${token}` }), ...headers },
      ...(body !== undefined && { payload: body as string }),
    });

  const signIn: EngineApp['signIn'] = async (login, password) => {
    const res = await request('POST', '/api/auth/login', { body: { username: login, password } });
    if (res.statusCode !== 200) throw new Error(`sign-in of ${login} failed: ${res.statusCode} ${res.body}`);
    const { user, token } = res.json() as { user: PublicUser; token: string };
    return { user, token, password };
  };

  const admin = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);

  const createUser: EngineApp['createUser'] = async (role = 'user') => {
    const username = `api${++counter}_${process.pid}`;
    const res = await request('POST', '/api/admin/users', {
      token: admin.token,
      body: { username, email: `${username}@example.test`, password: USER_PASSWORD, role },
    });
    if (res.statusCode !== 201) throw new Error(`creating ${username} failed: ${res.statusCode} ${res.body}`);
    return signIn(username, USER_PASSWORD);
  };

  const newSession: EngineApp['newSession'] = async (actor) => {
    const expiresAt = new Date(Date.now() + config.tokenTtlSeconds * 1000);
    const session = await createSession(database.db, { userId: actor.user._id, expiresAt, userAgent: 'api-suite' });
    return {
      ...actor,
      token: await app.tokens.sign({ sub: actor.user._id, sid: session.id, role: actor.user.role }, expiresAt),
    };
  };

  return {
    app,
    engine: trading.engine,
    db: database.db,
    config,
    admin,
    request,
    signIn,
    createUser,
    newSession,
    close: async () => {
      await app.close();
      await trading.stop();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
