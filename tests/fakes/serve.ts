// The fake venues as a process of their own, for benchmarks that run the product against them (bench/shards.ts):
// `tsx tests/fakes/serve.ts <accounts>` starts both fakes with that many Binance and Deriv accounts (the keys and
// tokens of accountKeys below), quotes BTC every 100 ms, prints the server environment as one JSON line, and reads
// commands from stdin, one a line: `premium <fraction>` sets Deriv's premium over Binance (a dislocation or its end).
import { createInterface } from 'node:readline';
import { startFakeVenues } from './venues';

export const accountKeys = (i: number) => ({
  apiKey: 'B'.repeat(58) + String(i).padStart(6, '0'),
  secret: 's'.repeat(64),
  derivToken: `a1-ShardBench${String(i).padStart(5, '0')}`,
  loginid: `CR${700000 + i}`,
});

const count = Number(process.argv[2] ?? 10);
const venues = await startFakeVenues({
  binanceAccounts: Array.from({ length: count }, (_, i) => ({
    apiKey: accountKeys(i).apiKey,
    secret: accountKeys(i).secret,
    balances: { USDT: '10000', BTC: '0', ETH: '0' },
  })),
  derivAccounts: Array.from({ length: count }, (_, i) => ({
    token: accountKeys(i).derivToken,
    loginid: accountKeys(i).loginid,
    balance: '10000',
  })),
});
let premium = 0.0001;
const feed = setInterval(() => {
  venues.binance.pushQuote('BTCUSDT', '80000.00', '80000.01');
  const deriv = 80_000 * (1 + premium);
  venues.deriv.pushTick('cryBTCUSD', deriv.toFixed(3), (deriv + 10).toFixed(3));
}, 100);
console.log(JSON.stringify(venues.env));
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const [command, value] = line.trim().split(/\s+/);
  if (command === 'premium' && Number.isFinite(Number(value))) premium = Number(value);
});
lines.on('close', () => {
  clearInterval(feed);
  void venues.close().then(() => process.exit(0));
});
