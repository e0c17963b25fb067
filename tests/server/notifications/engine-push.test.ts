// The real engine's events reach a device as push: a manual trade on the simulated market, closed by its time limit,
// arrives at the device (through a local push service that decrypts it) as "Trade completed" with its profit.
import { engineStopRecorder } from '../../../server/trading';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../../contract/notifications';
import type { PublicUser, Trade } from '../../../contract/entities';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { venueAccountLoader } from '../../../server/db/repositories/credentials';
import { createEngine, type RunningEngine } from '../../../server/engine';
import { startPushBridge } from '../../../server/notifications';
import { bootstrapAdmin } from '../../../server/process/first-admin';
import { loadSecrets } from '../../../server/security/secrets';
import { openTestDatabase, type TestDatabase } from '../helpers/database';
import { decryptPayload, startPushEndpoint, type PushEndpoint } from './push-endpoint';

describe('engine events as push notifications', () => {
  let endpoint: PushEndpoint;
  let database: TestDatabase;
  let trading: RunningEngine;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let bridge: Subscription;
  const dataDir = mkdtempSync(join(tmpdir(), 'engine-push-'));

  beforeAll(async () => {
    endpoint = await startPushEndpoint();
    database = await openTestDatabase('pglite', dataDir);
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'admin@example.test',
      ADMIN_PASSWORD: 'admin-password-1',
      LOG_LEVEL: 'silent',
      SIM_SEED: '11',
      TRADE_MAX_HOLD_MS: '1500',
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
      priceBook: trading.engine,
      engine: trading.engine,
      // The push service on loopback is the one place this app may send to.
      pushEgress: { ca: endpoint.ca, isAllowed: (address) => address === '127.0.0.1' },
    });
    await app.ready();
    bridge = startPushBridge({
      events$: trading.engine.events$,
      isLeader: () => trading.engine.isTrading,
      push: app.push,
      logger: app.log,
    });
    await trading.start(app.log);
  });
  afterAll(async () => {
    bridge?.unsubscribe();
    await app?.close();
    await trading?.stop();
    await database?.close();
    await endpoint?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('announces a manual trade that the time limit closed, with its profit, to the owner’s device', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin@example.test', password: 'admin-password-1' },
    });
    const { token } = login.json() as { token: string; user: PublicUser };
    const device = endpoint.device();
    const subscribed = await app.inject({
      method: 'POST',
      url: '/api/notifications/subscriptions',
      headers: { authorization: `Bearer ${token}` },
      payload: device.subscription,
    });
    expect(subscribed.statusCode).toBe(201);
    const arrived = endpoint.next(device.id);
    const created = await app.inject({
      method: 'POST',
      url: '/api/trades',
      headers: { authorization: `Bearer ${token}` },
      payload: { symbol: 'BTC/USDT', totalAmount: 50 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const trade = (created.json() as { trade: Trade }).trade;
    const message = JSON.parse(decryptPayload(device, (await arrived).body)) as PushMessage;
    const rows = await app.inject({ method: 'GET', url: '/api/trades', headers: { authorization: `Bearer ${token}` } });
    const finished = (rows.json() as { trades: Trade[] }).trades.find((t) => t._id === trade._id);
    expect(finished?.status).toMatch(/completed|failed/);
    expect(message).toMatchObject({
      kind: finished?.status === 'completed' ? 'tradeCompleted' : 'tradeFailed',
      url: '/trades',
      tag: `trade-${trade._id}`,
    });
    expect(message.title).toContain('BTC/USDT');
    if (finished?.status === 'completed') {
      const sign = finished.actualProfit > 0 ? '+' : finished.actualProfit < 0 ? '−' : '';
      expect(message.title).toContain(
        `${sign}${Math.abs(finished.actualProfit).toFixed(Math.abs(finished.actualProfit) >= 1 ? 2 : 4)} USDT`,
      );
    }
  }, 30_000);
});
