// GET /api/trades/export.csv on a real database: the file's content, its filters and range, the keyset walk across
// batches (ties on created_at included), and the answers to bad or empty ranges. Memory over 100k rows is measured in
// bench/export.ts, not here.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRADES_CSV_COLUMNS } from '../../../contract/csv';
import { exportTradeBatches } from '../../../server/db/repositories/trade-export';
import { trades, type StoredLeg } from '../../../server/db/schema/trades';
import { backends, createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { insertTrades } from './seed';

const leg = (
  venue: 'binance' | 'deriv',
  side: 'buy' | 'sell',
  openFee: string,
  closeFee: string | null,
): StoredLeg => ({
  venue,
  side,
  clientOrderId: `c-${venue}`,
  venueOrderId: `v-${venue}`,
  status: closeFee === null ? 'open' : 'closed',
  open: { price: '50000.1200000000', quantity: '0.0020000000', fee: openFee, at: '2026-01-01T00:00:00.000Z' },
  close:
    closeFee === null
      ? null
      : { price: '50010.0000000000', quantity: '0.0020000000', fee: closeFee, at: '2026-01-01T00:01:00.000Z' },
});

/** A CSV of this export: no field here holds a quoted comma except the reason, which the tests read by column name. */
function parse(text: string): Array<Record<string, string>> {
  const lines = text.split('\r\n');
  expect(lines.pop()).toBe('');
  const header = (lines.shift() ?? '').split(',');
  expect(header).toEqual(TRADES_CSV_COLUMNS);
  return lines.map((line) => {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i] as string;
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') {
        cells.push(cell);
        cell = '';
      } else cell += ch;
    }
    cells.push(cell);
    expect(cells).toHaveLength(header.length);
    return Object.fromEntries(header.map((h, i) => [h, cells[i] as string]));
  });
}

describe.each(backends)('trade CSV export on %s', (backend) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;
  const url = (query = '') => `/api/trades/export.csv${query}`;

  beforeAll(async () => {
    t = await createTestApp(backend);
    alice = await t.createUser();
    bob = await t.createUser();
    const base = Date.UTC(2026, 0, 1);
    const ids = await insertTrades(t.db, alice.user._id, [
      {
        status: 'completed',
        actualProfit: '1.2500000000',
        totalAmount: '100.5000000000',
        arbitrageSpread: '0.0031000000',
        createdAt: new Date(base),
      },
      { status: 'failed', symbol: 'ETH/USDT', actualProfit: '-0.0400000000', createdAt: new Date(base + 86_400_000) },
      { status: 'pending', createdAt: new Date(base + 2 * 86_400_000) },
    ]);
    await t.db
      .update(trades)
      .set({
        legs: [
          leg('binance', 'buy', '0.1000000000', '0.1000500000'),
          leg('deriv', 'sell', '0.0500000000', '0.0000000000'),
        ],
        reason: '=converged, "fast"',
      })
      .where(sql`${trades.id} = ${ids[0]}`);
    await insertTrades(t.db, bob.user._id, [{ status: 'completed', actualProfit: '99' }]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('streams the caller’s trades newest first with ISO dates, decimal points and each leg’s fees', async () => {
    const res = await t.request('GET', url(), { token: alice.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="trades-start-to-now.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    const rows = parse(res.body);
    expect(rows.map((r) => r.status)).toEqual(['pending', 'failed', 'completed']);
    const done = rows[2] as Record<string, string>;
    expect(done).toMatchObject({
      created_at: '2026-01-01T00:00:00.000Z',
      closed_at: '2026-01-01T00:00:00.500Z',
      symbol: 'BTC/USDT',
      notional_usdt: '100.5',
      spread_at_open: '0.0031',
      profit_usdt: '1.25',
      // 0.1 + 0.10005 + 0.05 + 0, exactly.
      fees_usdt: '0.25005',
      // A formula-looking text is defused; its comma and quotes survive quoting.
      reason: `'=converged, "fast"`,
      binance_side: 'buy',
      binance_open_price: '50000.12',
      binance_open_quantity: '0.002',
      binance_open_fee: '0.1',
      binance_close_fee: '0.10005',
      deriv_side: 'sell',
      deriv_open_fee: '0.05',
      deriv_close_price: '50010',
      deriv_close_fee: '0',
    });
    expect(rows[1]?.profit_usdt).toBe('-0.04');
    expect(rows[0]?.closed_at).toBe('');
    expect(rows[0]?.binance_side).toBe('');
  });

  it('applies the list filters and a [from, to) range on the opening time, and names the file after the range', async () => {
    const filtered = parse((await t.request('GET', url('?symbol=ETH%2FUSDT'), { token: alice.token })).body);
    expect(filtered.map((r) => r.symbol)).toEqual(['ETH/USDT']);
    expect(parse((await t.request('GET', url('?status=completed'), { token: alice.token })).body)).toHaveLength(1);
    const res = await t.request('GET', url('?from=2026-01-02T00:00:00Z&to=2026-01-03T00:00:00Z'), {
      token: alice.token,
    });
    expect(parse(res.body).map((r) => r.status)).toEqual(['failed']);
    expect(res.headers['content-disposition']).toBe('attachment; filename="trades-2026-01-02-to-2026-01-03.csv"');
  });

  it('gives the header only for a range without trades, and refuses a range that ends before it starts', async () => {
    const none = await t.request('GET', url('?from=2025-01-01T00:00:00Z&to=2025-02-01T00:00:00Z'), {
      token: alice.token,
    });
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe(`${TRADES_CSV_COLUMNS.join(',')}\r\n`);
    for (const q of [
      '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
      '?from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z',
    ]) {
      const res = await t.request('GET', url(q), { token: alice.token });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: 'The date range is empty: "from" must be before "to"',
      });
    }
    const bad = await t.request('GET', url('?from=yesterday'), { token: alice.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('from must be a date and time such as 2026-01-31T00:00:00Z');
    expect((await t.request('GET', url('?status=open'), { token: alice.token })).statusCode).toBe(400);
  });

  it('walks batches by keyset without losing or repeating trades that share an opening microsecond', async () => {
    const carol = await t.createUser();
    // One statement: every row gets the same now(), microseconds included, so only the id tells them apart.
    await t.db.insert(trades).values(
      Array.from({ length: 10 }, (_, i) => ({
        tradeId: `TIE-${process.pid}-${i}-${backend}`,
        userId: carol.user._id,
        symbol: 'BTC/USDT' as const,
        totalAmount: '1',
        arbitrageSpread: '0',
      })),
    );
    const seen: string[] = [];
    let batches = 0;
    for await (const batch of exportTradeBatches(t.db, carol.user._id, {}, 3)) {
      batches++;
      seen.push(...batch.map((row) => row._id));
    }
    expect(batches).toBe(4);
    expect(new Set(seen).size).toBe(10);
  });
});
