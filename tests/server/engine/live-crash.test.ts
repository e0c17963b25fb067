// A Deriv contract bought just before the server is SIGKILLed, the buy's answer never seen (issue 9, finding 4): the
// fake venues run in this test process, so they keep their orders and contracts across the product's restart, as real
// venues would. The restarted server finds the contract in the account's portfolio by the attempt it wrote down
// before buying, adopts the trade with both legs, and closes both on convergence: no contract is left untracked. A
// contract no trade knows (bought by hand on the same account) is logged and shown to the user, not ignored.
import { afterAll, describe, expect, it } from 'vitest';
import type { PublicUser, Trade } from '../../../contract/entities';
import { DerivVenue } from '../../../server/venues/deriv/venue';
import { startFakeVenues, type FakeVenues } from '../../fakes/venues';
import { api, poll, processRun, startServer, type ServerProcess } from './server-process';

const ADMIN = { username: 'admin@live-crash.test', password: 'live-crash-password' };
const KEY = 'K'.repeat(60) + 'KILL';
const SECRET = 's'.repeat(64);
const TOKEN = 'a1-CrashTraderToken';

describe('a Deriv contract bought before a SIGKILL', () => {
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

  it('is found after the restart, matched to its trade, and closed with it', async () => {
    fakes = await startFakeVenues({
      binanceAccounts: [{ apiKey: KEY, secret: SECRET, balances: { USDT: '10000', BTC: '0', ETH: '0' } }],
      derivAccounts: [{ token: TOKEN, loginid: 'CR8001', balance: '10000' }],
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
    const signIn = async () =>
      (await api(server!.url, 'POST', '/api/auth/login', undefined, ADMIN)).json.token as string;
    let token = await signIn();
    const me = (await api(server.url, 'GET', '/api/auth/profile', token)).json.user as PublicUser;
    expect(
      (
        await api(server.url, 'PUT', `/api/users/${me._id}/api-keys`, token, {
          binanceApiKey: KEY,
          binanceSecretKey: SECRET,
          derivToken: TOKEN,
        })
      ).status,
    ).toBe(200);
    expect(
      (await api(server.url, 'PUT', `/api/users/${me._id}`, token, { maxExposure: 1000, tradingEnabled: true })).status,
    ).toBe(200);
    expect((await api(server.url, 'POST', '/api/exchanges/trading/add-user', token)).json.tradingEnabled).toBe(true);

    // Deriv executes the next buy and never answers it; the server is killed while it waits.
    fakes.deriv.swallowNext('buy');
    const bought = fakes.deriv.waitForCall('buy');
    feed = setInterval(quote, 100);
    await bought;
    const [contract] = fakes.deriv.contracts();
    expect(contract).toMatchObject({ contractType: 'MULTDOWN', symbol: 'cryBTCUSD', sold: null });
    await poll('the Binance fill', async () => fakes!.binance.orders(KEY).length === 1);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    // While the server is down, the trader buys a contract by hand on the same account.
    const byHand = new DerivVenue({ url: fakes.deriv.url, appId: '1089' });
    const manual = await byHand.openLeg(
      { userId: 'me', credentials: { derivToken: TOKEN } },
      { clientOrderId: 'by-hand', symbol: 'ETH/USDT', side: 'buy', notional: '100' },
    );
    await byHand.close();

    // Restart on the same database and the same venues; the spread converges once the trade is found.
    server = await start(env);
    token = await signIn();
    const listed = async () =>
      ((await api(server!.url, 'GET', '/api/trades?limit=10', token)).json.trades as Trade[])[0];
    const adopted = await poll('the trade with both legs open', async () => {
      const trade = await listed();
      return trade?.legs.every((l) => l.status === 'open') ? trade : null;
    });
    expect(adopted.legs.find((l) => l.venue === 'deriv')?.venueOrderId).toBe(String(contract?.contractId));
    premium = 0.0001;
    const done = await poll('the trade to close', async () => {
      const trade = await listed();
      return trade?.status !== 'pending' ? trade : null;
    });
    expect(done).toMatchObject({ status: 'completed', reason: 'converged' });
    expect(fakes.deriv.contracts().find((c) => c.contractId === contract?.contractId)?.sold).not.toBeNull();
    expect(fakes.binance.orders(KEY).map((o) => o.side)).toEqual(['BUY', 'SELL']);
    // the contract bought by hand is reported, and only it
    const untracked = server
      .output()
      .split('\n')
      .filter((line) => line.includes('untracked_position'));
    expect(untracked).toHaveLength(1);
    expect(untracked[0]).toContain(`"venueOrderId":"${manual.venueOrderId}"`);
    expect(fakes.deriv.contracts().find((c) => String(c.contractId) === manual.venueOrderId)?.sold).toBeNull();
  }, 120_000);
});
