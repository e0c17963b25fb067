// What the guard features add to the paths they sit on, beside a floor measured in the same run:
// - the kill-switch read the engine makes before placing each trade (isTradingHalted) against `SELECT 1`;
// - one audit row written per audited request (audit()'s insert, names looked up) against `SELECT 1`;
// - a TOTP check (otpauth, ±1 step) against one SHA-256 of the same size, the CPU a sign-in's second step costs.
// PGlite by default; BENCH_DB=postgres uses BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// in a database `bench_guard` created and dropped here. Prints the figures and writes bench/results/guard.json.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { insertAuditEvent, usernamesOf } from '../server/db/repositories/audit';
import { isTradingHalted } from '../server/db/repositories/trading-halt';
import { acceptedStep, newTotpSecret, totpOf } from '../server/security/totp';

const HERE = dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.BENCH_N ?? 2000);
const BACKEND = process.env.BENCH_DB === 'postgres' ? 'postgres' : 'pglite';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Figures {
  meanUs: number;
  p50Us: number;
  p99Us: number;
}

async function time(n: number, op: (i: number) => Promise<unknown> | unknown): Promise<Figures> {
  for (let i = 0; i < Math.min(200, n); i++) await op(i); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await op(i);
    samples.push((performance.now() - t0) * 1000);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0);
  return { meanUs: Math.round(samples.reduce((s, x) => s + x, 0) / samples.length), p50Us: at(0.5), p99Us: at(0.99) };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-guard-'));
  let dropDb: (() => Promise<void>) | null = null;
  let databaseUrl: string | undefined;
  if (BACKEND === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS bench_guard');
    await admin.query('CREATE DATABASE bench_guard');
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = '/bench_guard';
    databaseUrl = url.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query('DROP DATABASE IF EXISTS bench_guard');
      await c.end();
    };
  }
  const database = await openDatabase({ dataDir, databaseUrl });
  const db = database.db;
  try {
    const floorQuery = await time(N, () => db.execute(sql`SELECT 1`));
    const haltRead = await time(N, () => isTradingHalted(db));
    const auditWrite = await time(N, async (i) => {
      await usernamesOf(db, []);
      await insertAuditEvent(db, {
        action: 'manual_trade',
        ip: '127.0.0.1',
        userAgent: 'bench',
        subjectName: 'bench',
        details: { symbol: 'BTC/USDT', totalAmount: 100 + i },
      });
    });
    const secret = newTotpSecret();
    const code = totpOf(secret, 'bench').generate();
    const floorHash = await time(N, (i) => createHash('sha256').update(`${secret}${i}`).digest());
    const totpCheck = await time(N, () => acceptedStep(secret, code, null));
    const figures = {
      backend: BACKEND,
      n: N,
      floorQuery,
      haltRead,
      haltReadOverFloor: Number((haltRead.meanUs / Math.max(1, floorQuery.meanUs)).toFixed(2)),
      auditWrite,
      auditWriteOverFloor: Number((auditWrite.meanUs / Math.max(1, floorQuery.meanUs)).toFixed(2)),
      floorHash,
      totpCheck,
    };
    console.log(`guard checks on ${BACKEND}, ${N} each (µs: mean / p50 / p99)`);
    const row = (name: string, f: Figures) =>
      console.log(
        `  ${name.padEnd(34)} ${String(f.meanUs).padStart(6)} / ${String(f.p50Us).padStart(6)} / ${String(f.p99Us).padStart(6)}`,
      );
    row('floor: SELECT 1', floorQuery);
    row('kill-switch read before a trade', haltRead);
    row('audit row (names + insert)', auditWrite);
    row('floor: one SHA-256', floorHash);
    row('TOTP check (±1 step)', totpCheck);
    console.log(
      `  halt read = ${figures.haltReadOverFloor}× floor query; audit write = ${figures.auditWriteOverFloor}× floor query`,
    );
    mkdirSync(join(HERE, 'results'), { recursive: true });
    const out = join(HERE, 'results', 'guard.json');
    writeFileSync(out, `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`  written to ${out}`);
  } finally {
    await database.close();
    await dropDb?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
