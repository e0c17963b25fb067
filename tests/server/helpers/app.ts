// Builds the real app on a fresh database for a test file, with an admin, captured logs and request helpers.
//
//   const t = await createTestApp('pglite');            // or 'postgres'; see `backends`
//   const res = await t.request('GET', '/api/auth/profile', { token: t.admin.token });
//   const alice = await t.createUser({ role: 'user' });  // { user, token, password }
//   await t.close();
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { PublicUser } from '../../../contract/entities';
import type { Role } from '../../../contract/domain';
import { buildApp, type BuildAppOptions } from '../../../server/app';
import { loadConfig, type Config } from '../../../server/config';
import { bootstrapAdmin } from '../../../server/process/first-admin';
import type { Db } from '../../../server/db/client';
import type { AuthChangeFeed } from '../../../server/db/auth-changes';
import { openTestDatabase, type Backend, type TestDatabase } from './database';

export { backends, type Backend } from './database';

export const ADMIN_PASSWORD = 'admin-password-for-tests';
export const ADMIN_EMAIL = 'admin@example.test';

export interface SignedIn {
  user: PublicUser;
  token: string;
  password: string;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  config: Config;
  dataDir: string;
  /** Every log line the app wrote, as JSON text. */
  logs: string[];
  /** The bootstrapped admin, signed in. */
  admin: SignedIn;
  request(
    method: string,
    url: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  login(username: string, password: string): Promise<LightMyRequestResponse>;
  /** Creates a user through the admin API and signs it in. Unique names unless given. */
  createUser(options?: { role?: Role; username?: string; email?: string; password?: string }): Promise<SignedIn>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment for loadConfig (e.g. { ALLOW_REGISTRATION: 'true' }). */
  env?: Record<string, string>;
  /** Anything else buildApp takes (priceBook, loginLimits, ...). */
  build?: Partial<Omit<BuildAppOptions, 'config' | 'db' | 'logSink'>>;
  /** Wraps the database's auth-change feed the app caches session checks by (a test holding announcements back). */
  wrapAuthChanges?: (feed: AuthChangeFeed) => AuthChangeFeed;
  /** Registers more routes on the built app before it is made ready (a test's own route). */
  register?: (app: FastifyInstance) => void | Promise<void>;
}

let counter = 0;

export async function createTestApp(backend: Backend, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'arb-test-'));
  const database = await openTestDatabase(backend, dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'info',
    ENGINE: 'off',
    ...(database.url && { DATABASE_URL: database.url }),
    ...options.env,
  });
  await bootstrapAdmin(database.db, config);
  const logs: string[] = [];
  const feed = await database.authChanges();
  const authChanges = options.wrapAuthChanges ? options.wrapAuthChanges(feed) : feed;
  const app = await buildApp({
    config,
    db: database.db,
    authChanges,
    logSink: { write: (line) => void logs.push(line) },
    ...options.build,
  });
  await options.register?.(app);
  await app.ready();

  const request: TestApp['request'] = (method, url, { token, body, headers } = {}) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...headers },
      ...(body !== undefined && { payload: body as object }),
    });
  const login: TestApp['login'] = (username, password) =>
    request('POST', '/api/auth/login', { body: { username, password } });

  const signIn = async (username: string, password: string): Promise<SignedIn> => {
    const res = await login(username, password);
    if (res.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
    const { user, token } = res.json() as { user: PublicUser; token: string };
    return { user, token, password };
  };

  const admin = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);

  const createUser: TestApp['createUser'] = async ({
    role = 'user',
    username,
    email,
    password = 'user-password-123',
  } = {}) => {
    const n = ++counter;
    const name = username ?? `user${n}_${process.pid}`;
    const res = await request('POST', '/api/admin/users', {
      // The current admin of this TestApp (a test may replace t.admin).
      token: testApp.admin.token,
      body: { username: name, email: email ?? `${name}@example.test`, password, role },
    });
    if (res.statusCode !== 201) throw new Error(`creating ${name} failed: ${res.statusCode} ${res.body}`);
    return signIn(name, password);
  };

  const testApp: TestApp = {
    app,
    db: database.db,
    database,
    config,
    dataDir,
    logs,
    admin,
    request,
    login,
    createUser,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}
