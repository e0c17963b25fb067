// Price fan-out with more pairs: the product's Socket.IO gateway (attachRealtime, PRICE_HZ coalescing as shipped) fed
// a price tick every TICK_MS for each enabled pair, to N connections that watch what a screen shows. Measures messages
// and bytes per client per second and the server's CPU, for:
//   2 pairs, every pair watched   — the spec's product, the floor of this run;
//   12 pairs, every pair watched  — the Dashboard (its list sorts by spread, so it needs them all);
//   12 pairs, 2 watched           — a screen of two pairs;
//   12 pairs, none watched        — Trades, Settings and the rest (the app's default off the Dashboard and Balances).
//   npx tsx bench/fanout-pairs.ts   (BENCH_CLIENTS=500, BENCH_SECONDS=5, BENCH_TICK_MS=100, PRICE_HZ=4)
// Writes bench/results/fanout-pairs.json.
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Subject } from 'rxjs';
import type { SymbolId } from '../contract/domain';
import { PAIR_CATALOGUE } from '../contract/pairs';
import type { EngineEvent } from '../server/engine/events';
import { attachRealtime } from '../server/realtime';
import { periodForHz } from '../server/realtime/coalesce';
import { forkChild } from './fanout-ipc';
import type { WatchReply } from './fanout-pairs-clients';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TICK_MS = Number(process.env.BENCH_TICK_MS ?? 100);
const PRICE_HZ = Number(process.env.PRICE_HZ ?? 4);
const HERE = dirname(fileURLToPath(import.meta.url));
const ALL: SymbolId[] = PAIR_CATALOGUE.map((p) => p.symbol);

const hardStop = setTimeout(() => {
  console.error('fanout-pairs: still running after 5 minutes, stopping');
  process.exit(2);
}, 5 * 60_000);
hardStop.unref();

const events = new Subject<EngineEvent>();
const http = createServer();
const realtime = attachRealtime(http, {
  verifyToken: async (token) => (token === 'bench' ? { id: 'bench', role: 'user', sessionId: 'bench' } : null),
  events$: events,
  priceHz: PRICE_HZ,
  logger: { info: () => undefined, warn: () => undefined, error: (o, m) => console.error(m, o) },
});
http.listen(0, '127.0.0.1');
await once(http, 'listening');
const { port } = http.address() as AddressInfo;

/** The market: every enabled pair ticks every TICK_MS (a busy live book, above PRICE_HZ, so coalescing applies). */
let enabled: SymbolId[] = [];
let seq = 0;
const market = setInterval(() => {
  const at = new Date().toISOString();
  for (const symbol of enabled) {
    seq += 1;
    const binance = 100 + (seq % 7);
    events.next({
      type: 'priceUpdate',
      price: {
        symbol,
        binance,
        deriv: binance * 1.001,
        spread: 0.001,
        arbitrage: { profitable: false },
        timestamp: at,
        stale: false,
        ageMs: { binance: 0, deriv: 0 },
      },
    });
  }
}, TICK_MS);

const clients = forkChild<WatchReply>('./fanout-pairs-clients.ts', [String(port), String(CLIENTS)]);
const ready = await clients.next('ready', 120_000);
console.log(
  `fanout-pairs: ${ready.clients} clients, a tick every ${TICK_MS} ms per pair, PRICE_HZ ${PRICE_HZ}, ${SECONDS} s a case (load ${loadavg()[0]!.toFixed(1)})`,
);

interface Case {
  name: string;
  pairs: number;
  watched: SymbolId[] | null;
}
const CASES: Case[] = [
  { name: '2 pairs, every pair watched (floor)', pairs: 2, watched: null },
  { name: '12 pairs, every pair watched (Dashboard)', pairs: 12, watched: null },
  { name: '12 pairs, 2 watched', pairs: 12, watched: ['BTC/USDT', 'ETH/USDT'] },
  { name: '12 pairs, none watched (Trades, Settings)', pairs: 12, watched: [] },
];

const results = [];
for (const c of CASES) {
  enabled = ALL.slice(0, c.pairs);
  clients.send({ type: 'watch', pairs: c.watched });
  await clients.next('watching', 60_000);
  // One coalescing period and a little more to settle, then a clean count.
  await new Promise((r) => setTimeout(r, periodForHz(PRICE_HZ) * 2 + 500));
  clients.send({ type: 'count' });
  await clients.next('counted');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  clients.send({ type: 'count' });
  const counted = await clients.next('counted');
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const perClient = counted.messages / counted.clients / seconds;
  const result = {
    case: c.name,
    pairs: c.pairs,
    watched: c.watched === null ? 'all' : c.watched.length,
    messagesPerClientPerSecond: Math.round(perClient * 100) / 100,
    kilobytesPerClientPerSecond: Math.round((counted.bytes / counted.clients / seconds / 1024) * 100) / 100,
    serverCpuMsPerSecond: Math.round(cpuMs / seconds),
    serverCpuMicrosPerDeliveredMessage: counted.messages
      ? Math.round(((cpuMs * 1000) / counted.messages) * 10) / 10
      : null,
  };
  results.push(result);
}
const floor = results[0]!;
const ratio = (a: number, b: number) => (b > 0 ? `×${(a / b).toFixed(2)}` : '—');
console.log('case                                          msgs/client/s  KB/client/s  server CPU ms/s  µs/msg');
for (const r of results)
  console.log(
    `${r.case.padEnd(46)}${String(r.messagesPerClientPerSecond).padStart(8)} ${ratio(r.messagesPerClientPerSecond, floor.messagesPerClientPerSecond).padStart(6)}${String(r.kilobytesPerClientPerSecond).padStart(9)}${String(r.serverCpuMsPerSecond).padStart(10)} ${ratio(r.serverCpuMsPerSecond, floor.serverCpuMsPerSecond).padStart(6)}${String(r.serverCpuMicrosPerDeliveredMessage ?? '—').padStart(8)}`,
  );

clearInterval(market);
await clients.stop();
await realtime.close();
http.closeAllConnections();
http.close();
const out = join(HERE, 'results', 'fanout-pairs.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ benchmark: 'price fan-out by pairs watched', clients: ready.clients, tickMs: TICK_MS, priceHz: PRICE_HZ, seconds: SECONDS, results, node: process.version, at: new Date().toISOString() }, null, 2)}\n`,
);
console.log(`  written to ${out}`);
