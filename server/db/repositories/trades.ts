// Reads of the trades table: the caller's history page by page, one trade, and the wire form of a row.
import { and, count, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SymbolId, TradeStatus } from '../../../contract/domain';
import type { Fill, Pagination, Trade, TradeLeg } from '../../../contract/entities';
import type { Db } from '../client';
import { trades, type StoredFill, type StoredLeg, type TradeRow } from '../schema/trades';

export interface TradeFilter {
  status?: TradeStatus;
  symbol?: SymbolId;
}

export interface TradePageQuery extends TradeFilter {
  /** 1-based. */
  page: number;
  limit: number;
}

export interface TradePage {
  trades: Trade[];
  pagination: Pagination;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toFill(fill: StoredFill | null): Fill | null {
  if (!fill) return null;
  return { price: Number(fill.price), quantity: Number(fill.quantity), fee: Number(fill.fee), at: fill.at };
}

function toLeg(leg: StoredLeg): TradeLeg {
  return {
    venue: leg.venue,
    side: leg.side,
    clientOrderId: leg.clientOrderId,
    venueOrderId: leg.venueOrderId,
    status: leg.status,
    open: toFill(leg.open),
    close: toFill(leg.close),
  };
}

/** The wire form: decimals become JSON numbers here and only here, dates ISO strings. */
export function toTradeDto(row: TradeRow): Trade {
  return {
    _id: row.id,
    tradeId: row.tradeId,
    userId: row.userId,
    symbol: row.symbol,
    status: row.status,
    totalAmount: Number(row.totalAmount),
    arbitrageSpread: Number(row.arbitrageSpread),
    actualProfit: Number(row.actualProfit),
    origin: row.origin,
    reason: row.reason,
    legs: (row.legs ?? []).map(toLeg),
    decision: row.decisionQuotes ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    closedAt: row.closedAt ? row.closedAt.toISOString() : null,
  };
}

/**
 * The filter as placeholders: the same predicate serves the page and its count, so both walk the same index. Which
 * optional parts are present picks one of four statement shapes.
 */
function tradeFilter(filter: TradeFilter): SQL | undefined {
  const parts: SQL[] = [eq(trades.userId, sql.placeholder('userId'))];
  if (filter.status) parts.push(eq(trades.status, sql.placeholder('status')));
  if (filter.symbol) parts.push(eq(trades.symbol, sql.placeholder('symbol')));
  return and(...parts);
}

/**
 * Newest first: createdAt, then id, both descending. Spelled exactly as the trades_user_*_created indexes are built
 * (DESC NULLS LAST; a bare DESC means NULLS FIRST, which the planner will not match to those indexes and then sorts
 * every one of the user's rows instead).
 */
const NEWEST_FIRST = [sql`${trades.createdAt} desc nulls last`, sql`${trades.id} desc nulls last`];

/**
 * One page of the caller's trades and the count under the same filter, in one statement (one round trip):
 * - the page is a deferred join: the offset is walked in the index alone (index-only scan, ids only) and just the
 *   page's rows are fetched from the table, so a deep page costs index entries, not thousands of wide rows;
 * - the count rides along as an uncorrelated scalar subquery (evaluated once, an index-only scan too).
 * A page past the end has no rows to carry the count, so only then is it asked for on its own.
 */
function pageStatement(db: Db, filter: TradeFilter, name: string) {
  const where = tradeFilter(filter);
  const countAll = db.select({ total: count() }).from(trades).where(where);
  const pageIds = db
    .select({ pageId: trades.id })
    .from(trades)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('page_ids');
  return {
    page: db
      .select({ ...getTableColumns(trades), total: sql<string>`(${countAll})`.as('total') })
      .from(trades)
      .innerJoin(pageIds, eq(trades.id, pageIds.pageId))
      .orderBy(...NEWEST_FIRST)
      .prepare(`trades_page_${name}`),
    count: countAll.prepare(`trades_count_${name}`),
  };
}

type PageStatement = ReturnType<typeof pageStatement>;

/**
 * Built once per database (or transaction) and filter shape, then only executed: no query building per request, and
 * on PostgreSQL named statements, so the server parses and plans each shape once per connection.
 */
const statements = new WeakMap<Db, Map<string, PageStatement>>();

function statementFor(db: Db, filter: TradeFilter): PageStatement {
  const name = `${filter.status ? 's' : ''}${filter.symbol ? 'y' : ''}` || 'all';
  let byShape = statements.get(db);
  if (!byShape) statements.set(db, (byShape = new Map()));
  let statement = byShape.get(name);
  if (!statement) byShape.set(name, (statement = pageStatement(db, filter, name)));
  return statement;
}

export async function listTrades(db: Db, userId: string, query: TradePageQuery): Promise<TradePage> {
  const statement = statementFor(db, query);
  const params = {
    userId,
    status: query.status,
    symbol: query.symbol,
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  };
  const rows = await statement.page.execute(params);
  const total = rows[0] ? Number(rows[0].total) : Number((await statement.count.execute(params))[0]?.total ?? 0);
  return {
    trades: rows.map(toTradeDto),
    pagination: { current: query.page, pages: Math.ceil(total / query.limit), total },
  };
}

/** One of the caller's trades by its `_id`; null when it does not exist or belongs to someone else. */
export async function getTrade(db: Db, userId: string, id: string): Promise<Trade | null> {
  if (!UUID.test(id)) return null;
  const rows = await db
    .select()
    .from(trades)
    .where(and(eq(trades.userId, userId), eq(trades.id, id)))
    .limit(1);
  return rows[0] ? toTradeDto(rows[0]) : null;
}
