// A Deriv contract bought just before the server is SIGKILLed, the buy's answer never seen (issue 9, finding 4), on
// Deriv's new API (issue 19), while a legacy-API trader trades on the same server. The fake venues run in this test
// process, so they keep their orders, accounts and contracts across the product's restart, as real venues would. The
// restarted server asks for fresh one-time passwords, finds the contract in the account's portfolio by the attempt
// it wrote down before buying, adopts the trade with both legs, and closes both on convergence: no contract is left
// untracked. A contract no trade knows (bought by hand on the same account) is logged and shown to the user, not
// ignored. No token and no one-time password reaches the log.
import { afterAll, describe, expect, it } from 'vitest';
import type { PublicUser, Trade } from '../../../contract/entities';
import { DerivVenue } from '../../../server/venues/deriv/venue';
import { startFakeVenues, type FakeVenues } from '../../fakes/venues';
import { api, poll, processRun, startServer, type ServerProcess } from './server-process';

const ADMIN = { username: 'admin@live-crash.test', password: 'live-crash-password' };
const PAT_USER = { username: 'pat@live-crash.test', password: 'pat-trader-password' };
const KEY = 'K'.repeat(60) + 'KILL';
const PAT_KEY = 'P'.repeat(60) + 'KILL';
const SECRET = 's'.repeat(64);
const TOKEN = 'a1-CrashTraderToken';
const PAT = 'pat_CrashTrader0Kq3Vb8Hn5Jm2Kq3Vb8Hn5Jm2';
const APP_ID = 'Qx7Lm2Np9Rs4Tv6Wy8Za1';

describe('a Deriv contract bought on the new API before a SIGKILL, beside a legacy trader', () => {
  const run = processRun('arb-live-crash-');
  let server: ServerProcess | null = null;
  const start: typeof startServer = async (...a) => (run.server = server = await startServer(...a));
  let fakes: FakeVenues | null = null;
  let feed: NodeJS.Timeout | null = null;

  afterAll(async () => {
    if (feed) clearInterval(feed);
    await run.cleanup();
    await fakes?.close();
  });

  it('is found after the restart, matched to its trade, and closed with it; the legacy trader trades on', async () => {
    fakes = await startFakeVenues({
      binanceAccounts: [
        { apiKey: KEY, secret: SECRET, balances: { USDT: '10000', BTC: '0', ETH: '0' } },
        { apiKey: PAT_KEY, secret: SECRET, balances: { USDT: '10000', BTC: '0', ETH: '0' } },
      ],
      derivAccounts: [{ token: TOKEN, loginid: 'CR8001', balance: '10000' }],
      derivPats: [{ token: PAT, appId: APP_ID, accounts: [{ accountId: 'DOT8002', balance: '10000' }] }],
    });
    const venues = fakes;
    let premium = 0.01;
    // The market: Deriv 1 % above Binance until the test lets it converge; quoted every 100 ms so nothing goes stale.
    const quote = () => {
      venues.binance.pushQuote('BTCUSDT', '80000.00', '80000.01');
      const deriv = 80_000 * (1 + premium);
      venues.deriv.pushTick('cryBTCUSD', deriv.toFixed(3), (deriv + 10).toFixed(3));
    };
    const env = {
      ...fakes.env,
      ...(await run.env('pglite')),
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
    };
    server = await start(env);
    const signIn = async (who: typeof ADMIN) =>
      (await api(server!.url, 'POST', '/api/auth/login', undefined, who)).json.token as string;
    let admin = await signIn(ADMIN);
    const created = await api(server.url, 'POST', '/api/admin/users', admin, {
      username: 'pattrader',
      email: PAT_USER.username,
      password: PAT_USER.password,
    });
    expect(created.status).toBe(201);
    let patToken = await signIn(PAT_USER);
    const setUp = async (token: string, keys: Record<string, string>) => {
      const me = (await api(server!.url, 'GET', '/api/auth/profile', token)).json.user as PublicUser;
      expect((await api(server!.url, 'PUT', `/api/users/${me._id}/api-keys`, token, keys)).status).toBe(200);
      expect((await api(server!.url, 'PUT', `/api/users/${me._id}`, token, { maxExposure: 1000 })).status).toBe(200);
      return me;
    };
    await setUp(admin, { binanceApiKey: KEY, binanceSecretKey: SECRET, derivToken: TOKEN });
    const patMe = await setUp(patToken, {
      binanceApiKey: PAT_KEY,
      binanceSecretKey: SECRET,
      derivToken: PAT,
      derivAppId: APP_ID,
    });
    // Test Connection finds the new API and the token's only account, and says so in Settings' words.
    const tested = await api(server.url, 'POST', '/api/exchanges/test-connection', patToken, { exchange: 'deriv' });
    expect(tested.json).toMatchObject({
      message: 'Deriv: new API, demo account DOT8002, 10,000.00 USD',
      deriv: { api: 'new', accountId: 'DOT8002' },
    });

    // Deriv executes the PAT trader's next buy and never answers it; the server is killed while it waits. The legacy
    // trader joins first and trades as usual.
    fakes.deriv.swallowNext('buy', 'new');
    const bought = fakes.deriv.waitForCall('buy');
    for (const token of [admin, patToken])
      expect((await api(server.url, 'POST', '/api/exchanges/trading/add-user', token)).json.tradingEnabled).toBe(true);
    feed = setInterval(quote, 100);
    await poll('the PAT trader’s buy', async () => fakes!.deriv.contracts().some((c) => c.loginid === 'DOT8002'));
    await bought;
    const contract = fakes.deriv.contracts().find((c) => c.loginid === 'DOT8002');
    expect(contract).toMatchObject({ contractType: 'MULTDOWN', symbol: 'cryBTCUSD', sold: null });
    await poll('the PAT trader’s Binance fill', async () => fakes!.binance.orders(PAT_KEY).length === 1);
    const openTrade = async (token: string) =>
      ((await api(server!.url, 'GET', '/api/trades?limit=10', token)).json.trades as Trade[]).find((t) =>
        t.legs.every((l) => l.status === 'open'),
      );
    await poll('the legacy trader’s trade with both legs open', () => openTrade(admin));
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    const firstLog = server.output();
    const otpsBefore = fakes.deriv.otpsIssued();
    // While the server is down, the trader buys a contract by hand on the same account.
    const byHand = new DerivVenue({
      url: fakes.deriv.url,
      publicUrl: fakes.deriv.publicUrl,
      apiUrl: fakes.deriv.apiUrl,
      appId: '1089',
    });
    const manual = await byHand.openLeg(
      { userId: 'me', credentials: { derivToken: PAT, derivAppId: APP_ID } },
      { clientOrderId: 'by-hand', symbol: 'ETH/USDT', side: 'buy', notional: '100' },
    );
    await byHand.close();

    // Restart on the same database and the same venues; the spread converges once the trade is found.
    server = await start(env);
    admin = await signIn(ADMIN);
    patToken = await signIn(PAT_USER);
    const latest = async (token: string) =>
      ((await api(server!.url, 'GET', '/api/trades?limit=10', token)).json.trades as Trade[])[0];
    const adopted = await poll('the PAT trade with both legs open', async () => {
      const trade = await latest(patToken);
      return trade?.legs.every((l) => l.status === 'open') ? trade : null;
    });
    expect(adopted.legs.find((l) => l.venue === 'deriv')?.venueOrderId).toBe(String(contract?.contractId));
    premium = 0.0001;
    for (const [who, token] of [
      ['PAT', patToken],
      ['legacy', admin],
    ] as const) {
      const done = await poll(`the ${who} trader’s trade to close`, async () => {
        const trade = await latest(token);
        return trade?.status !== 'pending' ? trade : null;
      });
      expect(done).toMatchObject({ status: 'completed', reason: 'converged' });
    }
    expect(fakes.deriv.contracts().find((c) => c.contractId === contract?.contractId)?.sold).not.toBeNull();
    expect(fakes.binance.orders(PAT_KEY).map((o) => o.side)).toEqual(['BUY', 'SELL']);
    // the restarted server asked for new one-time passwords rather than reuse any
    expect(fakes.deriv.otpsIssued()).toBeGreaterThan(otpsBefore + 1);
    expect(fakes.deriv.requests.filter((r) => r.dialect === 'new' && r.call === 'authorize')).toEqual([]);
    // the contract bought by hand is reported, and only it
    const untracked = server
      .output()
      .split('\n')
      .filter((line) => line.includes('untracked_position'));
    expect(untracked).toHaveLength(1);
    expect(untracked[0]).toContain(`"venueOrderId":"${manual.venueOrderId}"`);
    expect(untracked[0]).toContain(patMe._id);
    expect(fakes.deriv.contracts().find((c) => String(c.contractId) === manual.venueOrderId)?.sold).toBeNull();
    // no secret in the log: neither token nor any one-time password
    const log = firstLog + server.output();
    expect(log).toContain('"event":"untracked_position"');
    for (const secret of [PAT, TOKEN, SECRET, 'otp=']) expect(log).not.toContain(secret);
  }, 120_000);
});
