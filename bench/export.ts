// CSV export memory: GET /api/trades/export.csv for users with 1,000 (the floor), 10,000 and 100,000 trades, streamed
// by the real app (buildApp, ENGINE=off) from PostgreSQL (BENCH_DB=postgres, default; BENCH_PG_URL) or PGlite
// (BENCH_DB=pglite). While each file downloads, the server's heap and RSS are sampled every 50 ms; the figure is the
// peak above the level measured just before. Run with --expose-gc, every sample follows a collection, so the heap
// figure is live memory rather than garbage waiting for the next GC. Beside them, in the same run, the
// same 100,000 trades read at once and joined into one string, as an export without streaming would: what the
// streaming export does not spend. Prints a table and writes bench/results/export.json.
//
//   node --expose-gc --import tsx bench/export.ts
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { tradeCsvLine, tradesCsvHeader } from '../contract/csv';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { exportTradeBatches } from '../server/db/repositories/trade-export';
import { trades } from '../server/db/schema/trades';
import { hashPassword } from '../server/security/passwords';
import { seedTrades, seedUsers } from './lib/seed';

const kind = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgres';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_DB = 'bench_export';
const SIZES = [1_000, 10_000, 100_000];
const PASSWORD = 'bench-password-1';
const RESULTS = fileURLToPath(new URL('./results/export.json', import.meta.url));
const gc = (globalThis as { gc?: () => void }).gc;

const mb = (bytes: number) => bytes / 1024 / 1024;

async function databaseUrl(): Promise<string | undefined> {
  if (kind === 'pglite') return undefined;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${PG_DB}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${PG_DB}`;
  return url.toString();
}

/** Peak heap and RSS above the level just before `work`, sampled every 50 ms while it runs. */
async function peakDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; heapMb: number; rssMb: number; seconds: number }> {
  gc?.();
  const base = process.memoryUsage();
  let heap = base.heapUsed;
  let rss = base.rss;
  const sampler = setInterval(() => {
    // With --expose-gc each sample is taken after a collection: live memory, not garbage awaiting the next GC.
    gc?.();
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  }, 50);
  const started = performance.now();
  try {
    const result = await work();
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
    return {
      result,
      heapMb: mb(heap - base.heapUsed),
      rssMb: mb(rss - base.rss),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Downloads a URL, counting bytes and lines and keeping nothing. */
function download(url: string, token: string): Promise<{ bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${url} → ${res.statusCode}`));
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) lines++;
      });
      res.on('end', () => resolve({ bytes, lines }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  const url = await databaseUrl();
  const database = await openDatabase({ dataDir, databaseUrl: url });
  console.log(`CSV export memory on ${kind}${gc ? '' : ' (run with node --expose-gc for steadier baselines)'}`);
  try {
    const people = await seedUsers(database.db, SIZES.length, await hashPassword(PASSWORD), 'export');
    for (const [i, size] of SIZES.entries()) {
      const started = Date.now();
      await seedTrades(database.db, [people[i]?.id as string], size);
      // The seeder numbers trade ids from 0 on every call: give this user's their own before the next user's.
      await database.db.execute(
        sql`UPDATE trades SET trade_id = trade_id || ${`-u${i}`} WHERE user_id = ${people[i]?.id as string}`,
      );
      console.log(
        `  seeded ${size.toLocaleString('en')} trades for ${people[i]?.email} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    const config = loadConfig({
      DATA_DIR: dataDir,
      ENGINE: 'off',
      LOG_LEVEL: 'silent',
      ...(url && { DATABASE_URL: url }),
    });
    const app = await buildApp({ config, db: database.db });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const cases: Array<Record<string, number | string>> = [];
    try {
      for (const [i, size] of SIZES.entries()) {
        const login = await fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: people[i]?.email, password: PASSWORD }),
        });
        const { token } = (await login.json()) as { token: string };
        // One warm-up run per size (prepared statements, JIT), then the measured one.
        await download(`${base}/api/trades/export.csv`, token);
        const run = await peakDuring(() => download(`${base}/api/trades/export.csv`, token));
        if (run.result.lines !== size + 1) throw new Error(`expected ${size + 1} lines, got ${run.result.lines}`);
        cases.push({
          name: `streamed, ${size.toLocaleString('en')} trades`,
          rows: size,
          fileMb: mb(run.result.bytes),
          peakHeapMb: run.heapMb,
          peakRssMb: run.rssMb,
          rowsPerSecond: size / run.seconds,
        });
      }
      // The reference: the largest user's trades loaded at once and joined, as an unstreamed export would.
      const largest = people[SIZES.length - 1]?.id as string;
      const buffered = await peakDuring(async () => {
        const rows = await database.db.select().from(trades).where(eq(trades.userId, largest));
        let text = tradesCsvHeader();
        for await (const batch of exportTradeBatches(database.db, largest, {}, rows.length + 1))
          for (const t of batch) text += tradeCsvLine(t);
        return text.length + rows.length;
      });
      cases.push({
        name: 'reference: 100,000 trades loaded at once',
        rows: 100_000,
        fileMb: NaN,
        peakHeapMb: buffered.heapMb,
        peakRssMb: buffered.rssMb,
        rowsPerSecond: 100_000 / buffered.seconds,
      });
    } finally {
      await app.close();
    }
    console.log('\n  case                                       peak heap   peak RSS     rows/s   file');
    for (const c of cases) {
      console.log(
        `  ${String(c.name).padEnd(42)} ${`${Number(c.peakHeapMb).toFixed(1)} MB`.padStart(9)} ${`${Number(c.peakRssMb).toFixed(1)} MB`.padStart(10)} ${Math.round(Number(c.rowsPerSecond)).toLocaleString('en').padStart(10)}   ${Number.isNaN(Number(c.fileMb)) ? '-' : `${Number(c.fileMb).toFixed(1)} MB`}`,
      );
    }
    const floor = Number(cases[0]?.peakHeapMb);
    const top = Number(cases[SIZES.length - 1]?.peakHeapMb);
    console.log(
      `\n  100× the rows: peak heap ${top.toFixed(1)} MB against the 1,000-row floor of ${floor.toFixed(1)} MB (the loaded-at-once reference: ${buffered(cases).toFixed(1)} MB)`,
    );
    mkdirSync(join(RESULTS, '..'), { recursive: true });
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ database: kind, at: new Date().toISOString(), gc: Boolean(gc), cases }, null, 2)}\n`,
    );
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (url) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`);
      await admin.end();
    }
  }
}

const buffered = (cases: Array<Record<string, number | string>>) => Number(cases.at(-1)?.peakHeapMb);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
