// Crash safety, proven on the real process: the server is SIGKILLed twice — between a trade's two fills, then with a
// trade open — and each new process on the same database reconciles with the (paper) venues and finishes the trade.
// Afterwards every leg's client order id is in paper_orders exactly once per side (open, close), no filled leg is
// lost or left open, and the balances equal the seed plus what the recorded fills moved.
// Then the server is killed again and again with trades open, each process under another SIM_SEED: the simulated
// market continues its price path from what was saved (not the seed), and the recorded profit of every trade adds up
// to what the paper balances moved.
import Decimal from 'decimal.js';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { VENUES, type Currency, type SymbolId } from '../../../contract/domain';
import { DEFAULT_SYMBOLS, currenciesOf } from '../../../contract/pairs';

const CURRENCIES = currenciesOf(DEFAULT_SYMBOLS);
import { openDatabase, type Database } from '../../../server/db/client';
import { balances } from '../../../server/db/schema/balances';
import { paperOrders, trades } from '../../../server/db/schema/trades';
import { binanceSpot, DEFAULT_EXECUTION_COSTS, derivClose, derivOpen } from '../../../server/venues/sim/execution';
import { PAPER_SEED } from '../../../server/venues/sim/paper-seed';
import { backends } from '../helpers/app';
import { api, poll, processRun, startServer as startProcess, type ServerProcess } from './server-process';

const ADMIN = { username: 'admin@crash.test', password: 'crash-test-password' };

describe.each(backends)('crash recovery of the real server on %s', (backend) => {
  const run = processRun('arb-crash-');
  let server: ServerProcess | null = null;
  const startServer: typeof startProcess = async (...a) => (run.server = server = await startProcess(...a));

  afterAll(() => run.cleanup());

  it('finishes trades pending at SIGKILL without losing or repeating a leg', async () => {
    const env: Record<string, string> = {
      ...(await run.env(backend)),
      MARKET: 'sim',
      SIM_SEED: '4242',
      TRADE_MAX_HOLD_MS: '4000',
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    };

    // A market that dislocates at once, so each step has a trade within seconds.
    const dislocating = { dislocating: true };
    const t0 = Date.now();
    const mark = (what: string) => console.log(`[crash ${backend}] ${what} at ${Date.now() - t0} ms`);
    type Listed = { _id: string; tradeId: string; status: string; reason: string | null; legs: { status: string }[] };
    const listTrades = async (token: string, query = '') =>
      (await api(server!.url, 'GET', `/api/trades?limit=100${query}`, token)).json.trades as Listed[];
    const signIn = async () =>
      (await api(server!.url, 'POST', '/api/auth/login', undefined, ADMIN)).json.token as string;
    const kill = async (what: string) => {
      server!.child.kill('SIGKILL');
      expect(await server!.exited).toBe('SIGKILL');
      mark(`killed ${what}`);
    };

    // 1. Deriv's opening order reaches the venue 20 s after Binance's: the kill lands between the two fills.
    server = await startServer(env, { ...dislocating, derivOpenDelayMs: 20_000 });
    mark('listening');
    let token = await signIn();
    expect((await api(server.url, 'POST', '/api/exchanges/trading/add-user', token)).json.tradingEnabled).toBe(true);
    const first = await poll('a pending trade', async () => (await listTrades(token, '&status=pending'))[0]);
    await poll('its Binance fill', async () => {
      const res = await api(server!.url, 'GET', '/api/balances', token);
      const balance = res.json.balance as { binance: { USDT: number } } | undefined;
      return balance !== undefined && balance.binance.USDT !== 10_000;
    });
    await kill(`with ${first.tradeId} half filled`);

    // 2. Restart: the Deriv leg the venue never saw is not placed late; the Binance leg is unwound; the trade fails.
    //    Trading goes on; the next trade is killed once both of its legs are open.
    server = await startServer(env, dislocating);
    mark('restarted');
    token = await signIn();
    const failed = await poll('the half-filled trade to fail', async () =>
      (await listTrades(token)).find((t) => t._id === first._id && t.status !== 'pending'),
    );
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/not placed before a restart/);
    const second = await poll('an open trade', async () =>
      (await listTrades(token, '&status=pending')).find(
        (t) => t._id !== first._id && t.legs.every((l) => l.status === 'open'),
      ),
    );
    await kill(`with ${second.tradeId} open`);

    // 3. Restart: the open trade is adopted and closed by the usual rules; no new trades, so everything ends.
    server = await startServer(env, dislocating);
    mark('restarted again');
    token = await signIn();
    await api(server.url, 'POST', '/api/exchanges/trading/remove-user', token);
    const finished = await poll('every trade to finish', async () => {
      const all = await listTrades(token);
      return all.every((t) => t.status !== 'pending') && all.find((t) => t._id === second._id);
    });
    expect(['completed', 'cancelled']).toContain(finished.status);
    mark(`finished: ${finished.status} (${finished.reason})`);
    server.child.kill('SIGTERM');
    await server.exited;

    // inspect the database the three processes shared
    const database: Database = await openDatabase({ dataDir: run.dataDir, databaseUrl: env.DATABASE_URL });
    try {
      const tradeRows = await database.db.select().from(trades);
      const orders = await database.db.select().from(paperOrders);
      const byId = new Map(orders.map((o) => [`${o.venue}|${o.clientOrderId}`, o]));
      expect(byId.size).toBe(orders.length); // unique (venue, client order id)
      const expectedIds = new Set<string>();
      for (const t of tradeRows) {
        expect(t.status).not.toBe('pending');
        for (const leg of t.legs) {
          expect(['closed', 'unwound', 'failed']).toContain(leg.status);
          if (leg.open) {
            const o = byId.get(`${leg.venue}|${leg.clientOrderId}`);
            expect(o, `open fill of ${leg.clientOrderId}`).toBeDefined();
            expect(new Decimal(o?.price ?? 0).eq(leg.open.price)).toBe(true);
            expectedIds.add(`${leg.venue}|${leg.clientOrderId}`);
            // a filled leg is never left open: its close is recorded too
            expect(leg.close, `close of ${leg.clientOrderId}`).not.toBeNull();
          }
          if (leg.close) {
            const c = byId.get(`${leg.venue}|${leg.clientOrderId}-c`);
            expect(c, `close fill of ${leg.clientOrderId}`).toBeDefined();
            expect(new Decimal(c?.price ?? 0).eq(leg.close.price)).toBe(true);
            expectedIds.add(`${leg.venue}|${leg.clientOrderId}-c`);
          }
        }
      }
      // no order the venue executed is missing from a trade (no lost leg)
      expect([...byId.keys()].sort()).toEqual([...expectedIds].sort());

      // balances = seed + every recorded fill's movement, by the paper venue's own arithmetic
      const expected = new Map<string, Decimal>();
      const add = (venue: string, deltas: Partial<Record<Currency, string>>) => {
        for (const [c, d] of Object.entries(deltas))
          expected.set(`${venue}|${c}`, (expected.get(`${venue}|${c}`) ?? new Decimal(0)).plus(d as string));
      };
      for (const v of VENUES) for (const c of CURRENCIES) expected.set(`${v}|${c}`, new Decimal(PAPER_SEED[v][c] ?? 0));
      for (const t of tradeRows) {
        for (const leg of t.legs) {
          if (!leg.open) continue;
          const open = byId.get(`${leg.venue}|${leg.clientOrderId}`)!;
          const close = byId.get(`${leg.venue}|${leg.clientOrderId}-c`);
          const q = new Decimal(open.quantity);
          if (leg.venue === 'binance') {
            add(
              'binance',
              binanceSpot(leg.side, t.symbol as SymbolId, new Decimal(open.price), q, DEFAULT_EXECUTION_COSTS).deltas,
            );
            if (close)
              add(
                'binance',
                binanceSpot(
                  leg.side === 'buy' ? 'sell' : 'buy',
                  t.symbol as SymbolId,
                  new Decimal(close.price),
                  q,
                  DEFAULT_EXECUTION_COSTS,
                ).deltas,
              );
          } else {
            add('deriv', derivOpen(new Decimal(open.price), q, DEFAULT_EXECUTION_COSTS).deltas);
            if (close)
              add(
                'deriv',
                derivClose(leg.side, new Decimal(open.price), new Decimal(close.price), q, DEFAULT_EXECUTION_COSTS)
                  .deltas,
              );
          }
        }
      }
      const rows = await database.db.select().from(balances);
      for (const row of rows)
        expect(new Decimal(row.amount).toFixed(8), `${row.venue} ${row.currency}`).toBe(
          (expected.get(`${row.venue}|${row.currency}`) as Decimal).toFixed(8),
        );
      expect(tradeRows.length).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  }, 240_000);

  it('continues the price path across repeated kills, and recorded profit equals the paper balances moved', async () => {
    const KILLS = 3;
    // a database of its own, so only these kills' trades are in it
    const run = processRun('arb-crash-path-');
    onTestFinished(() => run.cleanup());
    const startServer: typeof startProcess = async (...a) => (run.server = server = await startProcess(...a));
    const base: Record<string, string> = {
      ...(await run.env(backend)),
      MARKET: 'sim',
      TRADE_MAX_HOLD_MS: '4000',
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    };
    const dislocating = { dislocating: true };
    type Listed = { _id: string; tradeId: string; status: string; legs: { status: string }[] };
    const signIn = async () =>
      (await api(server!.url, 'POST', '/api/auth/login', undefined, ADMIN)).json.token as string;
    const listTrades = async (token: string, query = '') =>
      (await api(server!.url, 'GET', `/api/trades?limit=100${query}`, token)).json.trades as Listed[];
    /** Binance's mid per symbol as the server quotes it, once it has one for both. */
    const mids = (token: string) =>
      poll('prices', async () => {
        const res = await api(server!.url, 'GET', '/api/exchanges/prices', token);
        const prices = res.json.prices as Record<SymbolId, { binance: number | null } | undefined> | undefined;
        const btc = prices?.['BTC/USDT']?.binance;
        const eth = prices?.['ETH/USDT']?.binance;
        return btc && eth ? { 'BTC/USDT': btc, 'ETH/USDT': eth } : null;
      });

    const seen = new Set<string>();
    let before: Record<SymbolId, number> | null = null;
    const jumps: number[] = [];
    for (let kill = 0; kill <= KILLS; kill += 1) {
      // Every process draws its moves from another seed: only what was saved can carry the path on.
      server = await startServer({ ...base, SIM_SEED: String(7_001 + kill * 7_919) }, dislocating);
      const token = await signIn();
      const first = await mids(token);
      if (before) {
        for (const symbol of ['BTC/USDT', 'ETH/USDT'] as const) {
          const jump = Math.abs(first[symbol]! / before[symbol]! - 1);
          jumps.push(jump);
          // About a second of movement at most (the last save before the kill), where a new path starts anywhere
          // in the symbol's price range.
          expect(jump, `${symbol} ${before[symbol]} before the kill, ${first[symbol]} after`).toBeLessThan(0.002);
        }
      }
      if (kill === KILLS) break;
      await api(server.url, 'POST', '/api/exchanges/trading/add-user', token);
      const open = await poll('an open trade', async () =>
        (await listTrades(token, '&status=pending')).find(
          (t) => !seen.has(t._id) && t.legs.length > 0 && t.legs.every((l) => l.status === 'open'),
        ),
      );
      seen.add(open._id);
      before = await mids(token);
      server.child.kill('SIGKILL');
      expect(await server.exited).toBe('SIGKILL');
    }
    // The last process closes what is open and trades no more.
    const token = await signIn();
    await api(server!.url, 'POST', '/api/exchanges/trading/remove-user', token);
    await poll('every trade to finish', async () => (await listTrades(token)).every((t) => t.status !== 'pending'));
    server!.child.kill('SIGTERM');
    await server!.exited;

    const database: Database = await openDatabase({ dataDir: run.dataDir, databaseUrl: base.DATABASE_URL });
    try {
      const tradeRows = await database.db.select().from(trades);
      const balanceRows = await database.db.select().from(balances);
      const users = new Set(tradeRows.map((t) => t.userId));
      for (const userId of users) {
        const recorded = tradeRows
          .filter((t) => t.userId === userId)
          .reduce((sum, t) => sum.plus(t.actualProfit), new Decimal(0));
        const fills = tradeRows
          .filter((t) => t.userId === userId)
          .reduce((n, t) => n + t.legs.filter((l) => l.open).length + t.legs.filter((l) => l.close).length, 0);
        const mine = balanceRows.filter((b) => b.userId === userId);
        const moved = (venue: 'binance' | 'deriv', currency: Currency) =>
          new Decimal(mine.find((b) => b.venue === venue && b.currency === currency)?.amount ?? 0).minus(
            PAPER_SEED[venue][currency] ?? 0,
          );
        const usdtMoved = moved('binance', 'USDT').plus(moved('deriv', 'USDT'));
        console.log(
          `[crash ${backend}] after ${KILLS} kills: ${tradeRows.length} trades, balances moved ${usdtMoved.toFixed(8)} USDT,` +
            ` recorded profit ${recorded.toFixed(8)}, difference ${usdtMoved.minus(recorded).toFixed(8)};` +
            ` price jumps at restart ${jumps.map((j) => `${(j * 100).toFixed(4)} %`).join(', ')}`,
        );
        // every coin a trade bought came back: only USDT moved, by exactly the recorded profit (to the venue's
        // 8-decimal rounding of each amount)
        expect(moved('binance', 'BTC').toFixed()).toBe('0');
        expect(moved('binance', 'ETH').toFixed()).toBe('0');
        expect(usdtMoved.minus(recorded).abs().toNumber()).toBeLessThanOrEqual(0.000000005 * fills);
      }
      expect(tradeRows.length).toBeGreaterThanOrEqual(KILLS);
    } finally {
      await database.close();
    }
  }, 300_000);
});
