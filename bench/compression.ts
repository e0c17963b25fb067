// Compressed API answers: what each coding saves on the answers a phone waits for (a 100-trade history page, the
// 20-trade page, the snapshot) and what it costs, per answer and under load.
// 1. Levels: every body compressed in this process at gzip 1/5/9 and brotli 1/4/5/11, bytes and CPU per answer.
// 2. Under load: the server (its own process, PGlite, 2,000 trades) paced open-loop on the 100-trade page, answering
//    plain, brotli and gzip in turn (interleaved rounds): server CPU per request, the server's event-loop delay (the
//    loop the engine shares with the API), latency, and bytes on the wire per answer.
// Run: npx tsx bench/compression.ts   (BENCH_RATE=40, BENCH_SECONDS=8, BENCH_ROUNDS=2) → bench/results/compression.json
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { openDatabase } from '../server/db/client';
import { hashPassword } from '../server/security/passwords';
import { runOpenLoop } from './lib/open-loop';
import { seedTrades, seedUsers } from './lib/seed';
import { spawnApiServer, type ServerProcess } from './lib/spawn-server';

const RATE = Number(process.env.BENCH_RATE ?? 40);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TRADES = 2000;
const PASSWORD = 'Bench-compress-password-1';

const ANSWERS = {
  'history page (100 trades)': '/api/trades?page=1&limit=100',
  'trades page (20 trades)': '/api/trades?page=1&limit=20',
  snapshot: '/api/snapshot',
} as const;

const CODINGS: Record<string, (b: Buffer) => Buffer> = {
  'gzip 1': (b) => gzipSync(b, { level: 1 }),
  'gzip 5': (b) => gzipSync(b, { level: 5 }),
  'gzip 9': (b) => gzipSync(b, { level: 9 }),
  ...Object.fromEntries(
    [1, 4, 5, 11].map((q) => [
      `br ${q}`,
      (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: q } }),
    ]),
  ),
};

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU per call (ms), repeated until at least 200 ms were spent. */
function cpuPer(fn: () => unknown): number {
  let n = 0;
  const start = cpuMs();
  while (cpuMs() - start < 200) {
    fn();
    n++;
  }
  return (cpuMs() - start) / n;
}

/** Bytes of the body as sent (before any decoding) and its coding. */
function rawGet(base: string, path: string, token: string, encoding: string) {
  return new Promise<{ bytes: number; coding: string; body: Buffer }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ bytes: body.length, coding: String(res.headers['content-encoding'] ?? 'identity'), body });
        });
      })
      .on('error', reject);
  });
}

function loopDelay(server: ServerProcess, reset: boolean): Promise<{ p50: number; p99: number; max: number }> {
  return new Promise((resolve) => {
    if (reset) {
      server.child.send('loop-reset');
      return resolve({ p50: 0, p99: 0, max: 0 });
    }
    const on = (m: { loop?: { p50: number; p99: number; max: number } }) => {
      if (!m.loop) return;
      server.child.off('message', on);
      resolve(m.loop);
    };
    server.child.on('message', on);
    server.child.send('loop');
  });
}

const r2 = (x: number) => Number(x.toFixed(2));

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-compression-'));
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  const [user] = await seedUsers(database.db, 1, await hashPassword(PASSWORD), 'compress');
  await seedTrades(database.db, [user!.id], TRADES);
  await database.close();
  const server = await spawnApiServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user!.email, password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };

    console.log(`Answers of a user with ${TRADES.toLocaleString('en')} trades: bytes and CPU per answer by coding`);
    const levels: Record<string, Record<string, { bytes: number; cpuMs: number }>> = {};
    for (const [name, path] of Object.entries(ANSWERS)) {
      const plain = (await rawGet(server.url, path, token, 'identity')).body;
      levels[name] = { plain: { bytes: plain.length, cpuMs: 0 } };
      for (const [coding, fn] of Object.entries(CODINGS))
        levels[name][coding] = { bytes: fn(plain).length, cpuMs: r2(cpuPer(() => fn(plain)) * 1000) / 1000 };
      const row = Object.entries(levels[name]).map(([c, v]) => `${c} ${v.bytes} B/${(v.cpuMs * 1000).toFixed(0)} µs`);
      console.log(`  ${name}: ${row.join(' · ')}`);
    }

    const path = ANSWERS['history page (100 trades)'];
    const modes = { plain: 'identity', br: 'gzip, deflate, br', gzip: 'gzip' } as const;
    const wire: Record<string, { bytes: number; coding: string }> = {};
    for (const [mode, enc] of Object.entries(modes)) {
      const { bytes, coding } = await rawGet(server.url, path, token, enc);
      wire[mode] = { bytes, coding };
    }
    const load = (enc: string) => ({
      name: enc,
      next: () => ({ path, headers: { authorization: `Bearer ${token}`, 'accept-encoding': enc } }),
    });
    await runOpenLoop(server.url, load('identity'), { rate: RATE, seconds: 3, connections: 20 });
    const sums: Record<string, { cpu: number; n: number; p99Loop: number[]; maxLoop: number[]; p99: number[] }> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const order = Object.entries(modes);
      if (round % 2) order.reverse();
      for (const [mode, enc] of order) {
        await loopDelay(server, true);
        const cpu0 = await server.cpuMs();
        const f = await runOpenLoop(server.url, load(enc), { rate: RATE, seconds: SECONDS, connections: 20 });
        const cpu = (await server.cpuMs()) - cpu0;
        const loop = await loopDelay(server, false);
        const s = (sums[mode] ??= { cpu: 0, n: 0, p99Loop: [], maxLoop: [], p99: [] });
        s.cpu += cpu;
        s.n += f.requests;
        s.p99Loop.push(r2(loop.p99));
        s.maxLoop.push(r2(loop.max));
        s.p99.push(r2(f.latencyP99));
      }
    }
    console.log(`\nThe 100-trade page paced at ${RATE} req/s, ${SECONDS} s × ${ROUNDS} rounds per coding:`);
    const underLoad = Object.fromEntries(
      Object.entries(sums).map(([mode, s]) => {
        const row = {
          bytesPerAnswer: wire[mode]!.bytes,
          coding: wire[mode]!.coding,
          serverCpuMsPerRequest: Number((s.cpu / s.n).toFixed(3)),
          eventLoopDelayP99Ms: s.p99Loop,
          eventLoopDelayMaxMs: s.maxLoop,
          latencyP99Ms: s.p99,
        };
        console.log(
          `  ${mode.padEnd(5)} ${String(row.bytesPerAnswer).padStart(6)} B (${row.coding})  server CPU ${row.serverCpuMsPerRequest} ms/req  loop delay p99 ${row.eventLoopDelayP99Ms.join('/')} ms, max ${row.eventLoopDelayMaxMs.join('/')} ms  latency p99 ${row.latencyP99Ms.join('/')} ms`,
        );
        return [mode, row];
      }),
    );
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    writeFileSync(
      new URL('./results/compression.json', import.meta.url),
      JSON.stringify({ trades: TRADES, rate: RATE, seconds: SECONDS, rounds: ROUNDS, levels, underLoad }, null, 2),
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
