// maxLoss across a real process restart (issue 9, findings 2 and 3), on the embedded database and on PostgreSQL: the
// realised drawdown since trading was enabled comes from the database, so a new process sees the losses an earlier one
// made, halts at the limit, and a process started after the halt keeps it.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { PublicUser, Trade } from '../../../contract/entities';
import { openDatabase } from '../../../server/db/client';
import { trades } from '../../../server/db/schema/trades';
import { users } from '../../../server/db/schema/users';
import { backends } from '../helpers/app';
import { api, poll, processRun, startServer, type ServerProcess } from './server-process';

const ADMIN = { username: 'admin@limits.test', password: 'limits-test-password' };

describe.each(backends)('maxLoss across a restart of the real server on %s', (backend) => {
  const run = processRun('arb-limits-');
  let server: ServerProcess | null = null;
  const start: typeof startServer = async (...a) => (run.server = server = await startServer(...a));

  afterAll(() => run.cleanup());

  it('halts on the drawdown the database holds, and stays halted after a restart', async () => {
    const env: Record<string, string> = {
      ...(await run.env(backend)),
      MARKET: 'sim',
      SIM_SEED: '777',
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    };
    const signIn = async () =>
      (await api(server!.url, 'POST', '/api/auth/login', undefined, ADMIN)).json.token as string;
    const profile = async (token: string) =>
      (await api(server!.url, 'GET', '/api/auth/profile', token)).json.user as PublicUser;
    const listTrades = async (token: string) =>
      (await api(server!.url, 'GET', '/api/trades?limit=100', token)).json.trades as Trade[];

    // 1. A first process creates the database and the admin, who sets max loss 10 USDT.
    server = await start(env);
    let token = await signIn();
    const me = await profile(token);
    expect(
      (
        await api(server.url, 'PUT', `/api/users/${me._id}`, token, {
          maxLoss: 10,
          maxExposure: 2000,
          tradingEnabled: false,
        })
      ).status,
    ).toBe(200);
    server.child.kill('SIGTERM');
    await server.exited;

    // 2. The history an earlier run left: since trading was enabled an hour ago, +5 then −9.9 (a drawdown of 9.9 from
    //    the peak of 5, while the total is only −4.9); and a −50 from before, outside the window.
    const database = await openDatabase({ dataDir: run.dataDir, databaseUrl: env.DATABASE_URL });
    const hour = 3_600_000;
    const finished = (profit: string, closedAgo: number) => ({
      id: randomUUID(),
      tradeId: `H${randomUUID().slice(0, 8)}`,
      userId: me._id,
      symbol: 'BTC/USDT' as const,
      status: 'completed' as const,
      totalAmount: '500',
      arbitrageSpread: '0.005',
      actualProfit: profit,
      createdAt: new Date(Date.now() - closedAgo - 1000),
      closedAt: new Date(Date.now() - closedAgo),
    });
    try {
      await database.db
        .insert(trades)
        .values([finished('-50', 2 * hour), finished('5', 0.5 * hour), finished('-9.9', 0.25 * hour)]);
      await database.db
        .update(users)
        .set({ tradingEnabled: true, tradingStop: null, tradingEnabledAt: new Date(Date.now() - hour) })
        .where(eq(users.id, me._id));
    } finally {
      await database.close();
    }

    // 3. A new process on that database, in a market where every Deriv order is refused: the first failed trade's
    //    unwind costs fees, the drawdown reaches 10, and trading stops there.
    server = await start(env, { dislocating: true, derivRefusesOpens: true });
    token = await signIn();
    const halted = await poll('the halt', async () => {
      const user = await profile(token);
      return user.tradingPausedAt ? user : null;
    });
    expect(halted).toMatchObject({
      tradingEnabled: false,
      tradingPauseReason: expect.stringMatching(
        /^Max loss reached: your realised P&L since you enabled trading is 1\d\.\d\d USDT below its peak of 5\.00 USDT \(max loss 10 USDT\)$/,
      ),
    });
    const afterHalt = await listTrades(token);
    // the first failure reaches the limit (a second may have been in flight on the other symbol)
    const failedNow = afterHalt.filter((t) => t.status === 'failed');
    expect(failedNow.length).toBeGreaterThanOrEqual(1);
    expect(failedNow.length).toBeLessThanOrEqual(2);
    expect(failedNow.every((t) => t.actualProfit < 0)).toBe(true);
    server.child.kill('SIGKILL');
    await server.exited;

    // 4. Restarted after a crash: still halted; the market keeps dislocating for a few seconds, and nothing opens.
    server = await start(env, { dislocating: true, derivRefusesOpens: true });
    token = await signIn();
    expect(await profile(token)).toMatchObject({ tradingEnabled: false, tradingPausedAt: halted.tradingPausedAt });
    const priceAt = async () =>
      Date.parse(
        (
          (await api(server!.url, 'GET', '/api/exchanges/prices', token)).json.prices as Record<
            string,
            { timestamp: string }
          >
        )['BTC/USDT']?.timestamp ?? '0',
      );
    const first = await poll('prices', priceAt);
    await poll('three seconds of market', async () => (await priceAt()) >= first + 3000);
    expect(await listTrades(token)).toHaveLength(afterHalt.length);
    expect(
      (await api(server.url, 'POST', '/api/trades', token, { symbol: 'BTC/USDT', totalAmount: 50 })).json.message,
    ).toMatch(/Trading is stopped/);
    server.child.kill('SIGTERM');
    await server.exited;
  }, 240_000);
});
