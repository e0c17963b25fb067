// The admin's global kill switch taken from memory (issue 21): a trade no longer reads the switch from the database;
// the engine holds it, kept current by the database's change notifications. A halt saved through another instance
// on the same PostgreSQL still stops the next decision, and a resume lets the next one trade — without a read.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresChannelFeed, type AuthChangeFeed } from '../../../server/db/auth-changes';
import { openDatabase, type Database } from '../../../server/db/client';
import { isTradingHalted, setTradingHalt, TRADING_HALT_CHANNEL } from '../../../server/db/repositories/trading-halt';
import { createPostgresDatabase } from '../helpers/database';
import { memoryEngine, tradeEvent, type MemoryEngine } from './memory-engine';

process.env.TEST_POSTGRES_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

const admin = { id: randomUUID(), name: 'admin' };
let dir: string;
let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
let ours: Database;
let other: Database;
let feed: AuthChangeFeed;
let m: MemoryEngine;
let reads = 0;

/** Resolves once the next change notification has reached this instance (the engine's listener runs first). */
const nextChange = () =>
  new Promise<string>((resolve) => {
    const off = feed.subscribe({ changed: (p) => (off(), resolve(p)), lost: () => undefined, live: () => undefined });
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fastpath-halt-'));
  created = await createPostgresDatabase();
  ours = await openDatabase({ dataDir: dir, databaseUrl: created.url });
  other = await openDatabase({ dataDir: dir, databaseUrl: created.url }); // the other app instance's own pool
  feed = await postgresChannelFeed(created.url, TRADING_HALT_CHANNEL);
  m = await memoryEngine({
    halted: () => {
      reads += 1;
      return isTradingHalted(ours.db);
    },
    haltChanges: feed,
    userSyncMs: 600_000, // the periodic settings sync (which reads the switch too) stays out of the count
  });
  m.users.set('alice');
  m.quote('BTC/USDT', 60_000, 0, Date.now());
  m.quote('ETH/USDT', 3_000, 0, Date.now());
  await m.engine.start({ logger: m.logger });
});

afterAll(async () => {
  await m?.engine.stop();
  await feed?.close();
  await other?.close();
  await ours?.close();
  await created?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a halt saved through another instance', () => {
  it('stops the next decision with no read of the switch per trade, and a resume lets the next one trade', async () => {
    expect(feed.isLive).toBe(true);
    const halted = nextChange();
    await setTradingHalt(other.db, { halted: true, reason: 'incident', by: admin });
    expect(await halted).toBe('true');
    expect(m.engine.globallyHalted).toBe(true);
    const readsBefore = reads;

    m.quote('BTC/USDT', 60_000, 0.008, Date.now());
    await m.engine.idle();
    expect(m.binance.placed).toEqual([]);
    expect(m.deriv.placed).toEqual([]);
    expect(m.store.states.size).toBe(0);

    const resumed = nextChange();
    await setTradingHalt(other.db, { halted: false, reason: '', by: admin });
    expect(await resumed).toBe('false');
    m.quote('BTC/USDT', 60_000, 0.009, Date.now());
    await m.waitFor(tradeEvent('pending', 'alice'));
    await m.engine.idle();
    expect(m.binance.placed).toHaveLength(1);
    expect(m.deriv.placed).toHaveLength(1);
    // Both decisions took the switch from memory: no database read on the way to an order.
    expect(reads).toBe(readsBefore);
  });
});
