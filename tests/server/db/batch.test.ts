// The engine's write and read batching (server/db/batch.ts) on a real database: items arriving together are written by
// one statement and each still gets its own result; when that statement fails, every item is written again on its
// own, so only the bad one fails; a lane's items land in order; reads of many keys are one query.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsertBatcher, ReadBatcher, StatementBatcher } from '../../../server/db/batch';
import type { Db } from '../../../server/db/client';
import { backends, openTestDatabase, type TestDatabase } from '../helpers/database';

describe.each(backends)('batching on %s', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'batch-test-'));
    database = await openTestDatabase(backend, dir);
    db = database.db;
    await db.execute(sql`CREATE TABLE batch_probe (k text PRIMARY KEY, v integer NOT NULL CHECK (v >= 0))`);
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const put = (tx: Db, k: string, v: number) =>
    tx.execute(sql`INSERT INTO batch_probe (k, v) VALUES (${k}, ${v}) ON CONFLICT (k) DO UPDATE SET v = ${v}`);
  const value = async (k: string) => {
    const rows = (await db.execute(sql`SELECT v FROM batch_probe WHERE k = ${k}`)) as unknown as
      { rows: Array<{ v: number }> } | Array<{ v: number }>;
    const list = Array.isArray(rows) ? rows : rows.rows;
    return list[0]?.v ?? null;
  };

  /** Upserts the rows with one statement, counting the statements. */
  const upserter = () => {
    const statements: string[][] = [];
    const writes = new StatementBatcher<{ k: string; v: number }, string>(async (rows) => {
      statements.push(rows.map((r) => r.k));
      await db.execute(sql`
        INSERT INTO batch_probe (k, v)
        SELECT * FROM unnest(${sql.param(rows.map((r) => r.k))}::text[], ${sql.param(rows.map((r) => r.v))}::int[])
        ON CONFLICT (k) DO UPDATE SET v = excluded.v`);
      return rows.map((r) => `${r.k} done`);
    });
    return { writes, statements };
  };

  it('writes the items of one turn with one statement; when it fails, each again alone and only the bad one fails', async () => {
    const { writes, statements } = upserter();
    const ok = await Promise.all([writes.run('a', { k: 'a', v: 1 }), writes.run('c', { k: 'c', v: 3 })]);
    expect(ok).toEqual(['a done', 'c done']);
    expect(statements).toEqual([['a', 'c']]);
    const results = await Promise.allSettled([
      writes.run('d', { k: 'd', v: 4 }),
      writes.run('b', { k: 'b', v: -1 }), // violates the check: the shared statement fails, then only this one
      writes.run('e', { k: 'e', v: 5 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[0]).toMatchObject({ value: 'd done' });
    expect(statements.slice(1)).toEqual([['d', 'b', 'e'], ['d'], ['b'], ['e']]);
    expect([await value('a'), await value('b'), await value('c'), await value('d'), await value('e')]).toEqual([
      1,
      null,
      3,
      4,
      5,
    ]);
  });

  it("keeps a lane's items in order across statements", async () => {
    const { writes, statements } = upserter();
    await Promise.all([1, 2, 3, 4].map((v) => writes.run('same', { k: 'ordered', v })));
    expect(await value('ordered')).toBe(4);
    expect(statements).toHaveLength(4);
  });

  it('inserts many rows in one statement, and each alone when that statement fails', async () => {
    let statements = 0;
    const inserts = new InsertBatcher<{ k: string; v: number }, string>(async (rows) => {
      statements += 1;
      await db.transaction(async (tx) => {
        for (const row of rows) await put(tx as Db, row.k, row.v);
      });
      return rows.map((r) => r.k);
    });
    const ok = await Promise.all([inserts.insert({ k: 'i1', v: 1 }), inserts.insert({ k: 'i2', v: 2 })]);
    expect(ok).toEqual(['i1', 'i2']);
    expect(statements).toBe(1);
    const mixed = await Promise.allSettled([inserts.insert({ k: 'i3', v: 3 }), inserts.insert({ k: 'i4', v: -4 })]);
    expect(mixed.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await value('i3')).toBe(3);
  });

  it('reads the keys asked for in one turn with one query', async () => {
    const asked: string[][] = [];
    const reads = new ReadBatcher<string, number | null>(
      async (keys) => {
        asked.push(keys);
        return new Map(keys.map((k) => [k, k.length]));
      },
      (k) => k,
      null,
    );
    expect(await Promise.all([reads.load('x'), reads.load('yy'), reads.load('x')])).toEqual([1, 2, 1]);
    expect(asked).toEqual([['x', 'yy']]);
  });
});
