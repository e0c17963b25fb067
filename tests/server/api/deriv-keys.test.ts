// Saving and testing Deriv credentials over the API of a live-mode server, against the fake Deriv (issue 19): one token
// field for either kind of token, the app ID and account as Deriv's new API needs them, field messages for malformed
// ones, the API found out on Test Connection and written down beside the token, the account chosen among those Deriv
// listed, Deriv's refusals in the user's words, and no token or one-time password in any log line.
import { engineStopRecorder } from '../../../server/trading';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../contract/entities';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { findCredentials, venueAccountLoader } from '../../../server/db/repositories/credentials';
import { createEngine, type RunningEngine } from '../../../server/engine';
import { bootstrapAdmin } from '../../../server/process/first-admin';
import { loadSecrets } from '../../../server/security/secrets';
import { derivCredentialsComplete } from '../../../server/venues/deriv/credentials';
import { startFakeDeriv, type FakeDeriv } from '../../fakes/deriv/server';
import { openTestDatabase, type TestDatabase } from '../helpers/database';

const APP_ID = 'Qx7Lm2Np9Rs4Tv6Wy8Za1';
const PAT = 'pat_KeysTrader0Kq3Vb8Hn5Jm2Kq3Vb8Hn5Jm2';
const TWO = 'pat_KeysTwoAcc0Kq3Vb8Hn5Jm2Kq3Vb8Hn5Jm2';
const LEGACY = 'a1-KeysLegacyToken';
const ADMIN = { username: 'admin@deriv-keys.test', password: 'deriv-keys-admin-password' };

let fake: FakeDeriv;
let app: FastifyInstance;
let trading: RunningEngine;
let database: TestDatabase;
let dataDir: string;
const logs: string[] = [];
let n = 0;

const request = (method: string, url: string, token?: string, body?: unknown): Promise<LightMyRequestResponse> =>
  app.inject({
    method: method as 'GET',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body !== undefined && { payload: body as object }),
  });

async function newUser(): Promise<{ id: string; token: string }> {
  const admin = (await request('POST', '/api/auth/login', undefined, ADMIN)).json().token as string;
  const name = `deriv${++n}`;
  const created = await request('POST', '/api/admin/users', admin, {
    username: name,
    email: `${name}@example.test`,
    password: 'user-password-123',
  });
  expect(created.statusCode).toBe(201);
  const signed = await request('POST', '/api/auth/login', undefined, {
    username: name,
    password: 'user-password-123',
  });
  return { id: (signed.json().user as PublicUser)._id, token: signed.json().token as string };
}

const saveKeys = (u: { id: string; token: string }, body: Record<string, string>) =>
  request('PUT', `/api/users/${u.id}/api-keys`, u.token, body);
const test = (u: { token: string }, body: Record<string, string> = {}) =>
  request('POST', '/api/exchanges/test-connection', u.token, { exchange: 'deriv', ...body });

beforeAll(async () => {
  fake = await startFakeDeriv({
    accounts: [{ token: LEGACY, loginid: 'CR5001', balance: '750' }],
    pats: [
      { token: PAT, appId: APP_ID, accounts: [{ accountId: 'DOT5002', balance: '10000' }] },
      {
        token: TWO,
        appId: APP_ID,
        accounts: [
          { accountId: 'DOT5003', balance: '10000' },
          { accountId: 'ROT5004', type: 'real', balance: '25.5' },
        ],
      },
    ],
  });
  dataDir = mkdtempSync(join(tmpdir(), 'deriv-keys-'));
  database = await openTestDatabase('pglite', dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'debug',
    MARKET: 'live',
    BINANCE_REST_URL: 'http://127.0.0.1:9',
    BINANCE_WS_URL: 'ws://127.0.0.1:9',
    DERIV_WS_URL: fake.url,
    DERIV_PUBLIC_WS_URL: fake.publicUrl,
    DERIV_API_URL: fake.apiUrl,
  });
  await bootstrapAdmin(database.db, config);
  const secrets = loadSecrets(config.dataDir, config.encryptionKey, config.tokenKey);
  trading = await createEngine({
    config,
    db: database.db,
    account: venueAccountLoader(database.db, secrets.encryptionKey),
    recordStop: engineStopRecorder(database.db),
  });
  app = await buildApp({
    config,
    db: database.db,
    secrets,
    engine: trading.engine,
    priceBook: trading.engine,
    logSink: { write: (line) => void logs.push(line) },
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await trading?.venues.close();
  await database?.close();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('Deriv credentials over the API', () => {
  it('answers malformed tokens and app IDs with field messages, and takes alphanumeric app IDs up to 64', async () => {
    const u = await newUser();
    const bad = await saveKeys(u, { derivToken: 'has space in it', derivAppId: 'my-app' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { msg: 'The Deriv token has spaces in it: paste it again without them', path: 'derivToken' },
      { msg: 'The Deriv app ID has only letters and digits', path: 'derivAppId' },
    ]);
    const saved = await saveKeys(u, { derivToken: PAT, derivAppId: 'A'.repeat(64) });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().user).toMatchObject({ derivAppId: 'A'.repeat(64), hasDerivToken: true });
  });

  it('finds a PAT on the new API at Test Connection, writes down its only account and shows it', async () => {
    const u = await newUser();
    const saved = await saveKeys(u, { derivToken: PAT, derivAppId: APP_ID });
    expect(saved.json().user.deriv).toEqual({ api: null, accountId: '', accounts: [], checkedAt: null });
    expect(derivCredentialsComplete(await findCredentials(database.db, u.id))).toBe(true);
    const tested = await test(u);
    expect(tested.statusCode).toBe(200);
    expect(tested.json()).toMatchObject({
      success: true,
      exchange: 'deriv',
      message: 'Deriv: new API, demo account DOT5002, 10,000.00 USD',
      deriv: {
        api: 'new',
        accountId: 'DOT5002',
        accounts: [{ accountId: 'DOT5002', type: 'demo', currency: 'USD', balance: 10000, status: 'active' }],
        checkedAt: expect.any(String),
      },
    });
    const profile = await request('GET', '/api/auth/profile', u.token);
    expect(profile.json().user.deriv).toEqual(tested.json().deriv);
    expect(derivCredentialsComplete(await findCredentials(database.db, u.id))).toBe(true);
    // a new token forgets what Deriv said about the old one
    const replaced = await saveKeys(u, { derivToken: LEGACY });
    expect(replaced.json().user.deriv).toEqual({ api: null, accountId: '', accounts: [], checkedAt: null });
  });

  it('lists several accounts and takes only one of them as the choice', async () => {
    const u = await newUser();
    await saveKeys(u, { derivToken: TWO, derivAppId: APP_ID });
    const tested = await test(u);
    expect(tested.json()).toMatchObject({
      message: 'Deriv: new API, 2 accounts: choose the one to trade below',
      deriv: { api: 'new', accountId: '', accounts: [{ accountId: 'DOT5003' }, { accountId: 'ROT5004' }] },
    });
    expect(derivCredentialsComplete(await findCredentials(database.db, u.id))).toBe(false);
    const unknown = await saveKeys(u, { derivAccountId: 'ROT9999' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'Deriv did not list the account ROT9999 for your token: press Test Connection to list them again',
    );
    const chosen = await saveKeys(u, { derivAccountId: 'ROT5004' });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().user.deriv).toMatchObject({ api: 'new', accountId: 'ROT5004' });
    expect(derivCredentialsComplete(await findCredentials(database.db, u.id))).toBe(true);
    expect((await test(u)).json().message).toBe('Deriv: new API, real account ROT5004, 25.50 USD');
  });

  it('finds a legacy token after the new API refused it, and has no account to choose for it', async () => {
    const u = await newUser();
    await saveKeys(u, { derivToken: LEGACY });
    const tested = await test(u);
    expect(tested.json()).toMatchObject({
      message: 'Deriv: legacy API, real account CR5001, 750.00 USD (scopes read, trade)',
      deriv: { api: 'legacy', accountId: '', accounts: [{ accountId: 'CR5001', type: 'real' }] },
    });
    const choice = await saveKeys(u, { derivAccountId: 'CR5001' });
    expect(choice.statusCode).toBe(400);
    expect(choice.json().message).toBe('A legacy Deriv API token trades its own account: there is none to choose');
  });

  it("shows Deriv's refusals in the user's words, and tests typed credentials without saving anything", async () => {
    const u = await newUser();
    await saveKeys(u, { derivToken: PAT });
    const refused = await test(u);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'Deriv refused the token: it is a personal access token, which needs the app ID of the app it was made for. Enter that app ID beside the token.',
    );
    const typed = await test(u, { token: PAT, appId: APP_ID });
    expect(typed.statusCode).toBe(200);
    expect(typed.json().message).toBe('Deriv: new API, demo account DOT5002, 10,000.00 USD');
    expect(typed.json()).not.toHaveProperty('deriv');
    expect((await request('GET', '/api/auth/profile', u.token)).json().user.deriv.api).toBeNull();
  });

  it('logs no token and no one-time password', () => {
    expect(logs.length).toBeGreaterThan(10);
    const all = logs.join('\n');
    for (const secret of [PAT, TWO, LEGACY, 'otp=']) expect(all).not.toContain(secret);
  });
});
