// The floor of GET /api/trades: the thinnest server on the product's own stack — Fastify and `pg`, no ORM, no plugins —
// doing the same work per request as the product:
//   1. verify the bearer token (jose, HS256, the product's key, issuer and claim checks; verified tokens remembered
//      until they expire, as server/security/tokens.ts does),
//   2. check the session row (live session of that user, joined to the user: revoked → 401, inactive user → 401),
//   3. validate the query with the contract's own schema (TradesQuery) and run the same page statement as
//      server/db/repositories/trades.ts listTrades (deferred join + count in one statement, named prepared statements),
//   4. answer the same JSON (same field names, decimals as JSON numbers, ISO dates).
// bench/api.ts starts it in its own process (bench/lib/spawn-server.ts) on the product's database; tests start it in
// process (startFloor) to prove its body equals the product's for the same request.
import Fastify, { type FastifyInstance } from 'fastify';
import { jwtVerify } from 'jose';
import pg from 'pg';
import { TradesQuery } from '../contract/api';
import { ROLES } from '../contract/domain';
import { loadConfig } from '../server/config';
import { loadSecrets } from '../server/security/secrets';

const ISSUER = 'arbitrage-pwa';
const BEARER = /^Bearer\s+(\S+)$/i;
const VERIFIED_CACHE_SIZE = 10_000;

interface Claims {
  sub: string;
  sid: string;
  exp: number;
}

/** The session check of findLiveSession: the session exists, is that user's, is not revoked and has not expired. */
const SESSION_SQL =
  'select u.id, u.role, u.is_active from sessions s join users u on u.id = s.user_id ' +
  'where s.id = $1 and s.user_id = $2 and s.revoked_at is null and s.expires_at > $3 limit 1';

const COLUMNS =
  't.id, t.trade_id, t.user_id, t.symbol, t.status, t.origin, t.total_amount, t.arbitrage_spread, t.actual_profit, ' +
  't.reason, t.legs, t.decision_quotes, t.created_at, t.updated_at, t.closed_at';
const ORDER = 'created_at desc nulls last, id desc nulls last';

/** The product's page statement for one filter shape ($1 user, then status and/or symbol, then limit and offset). */
function pageSql(status: boolean, symbol: boolean): string {
  let where = 'user_id = $1';
  let n = 1;
  if (status) where += ` and status = $${++n}`;
  if (symbol) where += ` and symbol = $${++n}`;
  return (
    `select ${COLUMNS}, (select count(*) from trades where ${where}) as total from trades t ` +
    `join (select id from trades where ${where} order by ${ORDER} limit $${n + 1} offset $${n + 2}) page_ids on t.id = page_ids.id ` +
    `order by t.${ORDER.replace(', id', ', t.id')}`
  );
}

function countSql(status: boolean, symbol: boolean): string {
  let where = 'user_id = $1';
  let n = 1;
  if (status) where += ` and status = $${++n}`;
  if (symbol) where += ` and symbol = $${++n}`;
  return `select count(*) as total from trades where ${where}`;
}

interface StoredFill {
  price: string;
  quantity: string;
  fee: string;
  at: string;
}

interface StoredLeg {
  venue: string;
  side: string;
  clientOrderId: string;
  venueOrderId: string | null;
  status: string;
  open: StoredFill | null;
  close: StoredFill | null;
}

interface TradeRecord {
  id: string;
  trade_id: string;
  user_id: string;
  symbol: string;
  status: string;
  origin: string;
  total_amount: string;
  arbitrage_spread: string;
  actual_profit: string;
  reason: string | null;
  legs: StoredLeg[] | null;
  decision_quotes: unknown;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
  total?: string;
}

const fill = (f: StoredFill | null) =>
  f ? { price: Number(f.price), quantity: Number(f.quantity), fee: Number(f.fee), at: f.at } : null;

/** The product's wire form of a trade (toTradeDto), written out against the raw row. */
function toJson(row: TradeRecord) {
  return {
    _id: row.id,
    tradeId: row.trade_id,
    userId: row.user_id,
    symbol: row.symbol,
    status: row.status,
    totalAmount: Number(row.total_amount),
    arbitrageSpread: Number(row.arbitrage_spread),
    actualProfit: Number(row.actual_profit),
    origin: row.origin,
    reason: row.reason,
    legs: (row.legs ?? []).map((leg) => ({
      venue: leg.venue,
      side: leg.side,
      clientOrderId: leg.clientOrderId,
      venueOrderId: leg.venueOrderId,
      status: leg.status,
      open: fill(leg.open),
      close: fill(leg.close),
    })),
    decision: row.decision_quotes ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    closedAt: row.closed_at ? row.closed_at.toISOString() : null,
  };
}

export interface Floor {
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startFloor(options: {
  databaseUrl: string;
  tokenKey: Uint8Array;
  poolSize?: number;
}): Promise<Floor> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
  pool.on('error', () => undefined);
  const verified = new Map<string, Claims>();

  const verify = async (token: string): Promise<Claims | null> => {
    const known = verified.get(token);
    if (known && known.exp * 1000 > Date.now()) return known;
    try {
      const { payload } = await jwtVerify(token, options.tokenKey, { algorithms: ['HS256'], issuer: ISSUER });
      const { sub, sid, role, exp } = payload;
      if (
        typeof sub !== 'string' ||
        typeof sid !== 'string' ||
        typeof exp !== 'number' ||
        !ROLES.includes(role as never)
      )
        return null;
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
      const claims = { sub, sid, exp };
      verified.set(token, claims);
      return claims;
    } catch {
      return null;
    }
  };

  const app = Fastify({ logger: false });
  app.get('/api/trades', async (request, reply) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const claims = token ? await verify(token) : null;
    if (!claims) return reply.code(401).send({ success: false, message: 'Authentication required. Please sign in.' });
    const session = await pool.query<{ id: string; role: string; is_active: boolean }>({
      name: 'floor_session',
      text: SESSION_SQL,
      values: [claims.sid, claims.sub, new Date()],
    });
    const user = session.rows[0];
    if (!user || !user.is_active)
      return reply
        .code(401)
        .send({ success: false, message: 'Your session has expired or was ended. Please sign in again.' });
    const query = TradesQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send({ success: false, message: 'Invalid query' });
    const { status, symbol, page, limit } = query.data;
    const shape = `${status ? 's' : ''}${symbol ? 'y' : ''}`;
    const filter = [user.id, ...(status ? [status] : []), ...(symbol ? [symbol] : [])];
    const rows = (
      await pool.query<TradeRecord>({
        name: `floor_page_${shape}`,
        text: pageSql(!!status, !!symbol),
        values: [...filter, limit, (page - 1) * limit],
      })
    ).rows;
    const total = Number(
      rows[0]?.total ??
        (
          await pool.query<{ total: string }>({
            name: `floor_count_${shape}`,
            text: countSql(!!status, !!symbol),
            values: filter,
          })
        ).rows[0]?.total ??
        0,
    );
    return {
      success: true,
      trades: rows.map(toJson),
      pagination: { current: page, pages: Math.ceil(total / limit), total },
    };
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}

/** As a child of bench/lib/spawn-server.ts: the product's key from the same configuration, IPC for port and CPU time. */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, ENGINE: 'off', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0' });
  if (!config.databaseUrl) throw new Error('the floor runs on PostgreSQL only: set DATABASE_URL');
  const secrets = loadSecrets(config.dataDir, config.encryptionKey, config.tokenKey);
  const floor = await startFloor({ databaseUrl: config.databaseUrl, tokenKey: secrets.tokenKey });
  await floor.app.listen({ host: '127.0.0.1', port: 0 });
  const address = floor.app.server.address();
  const stop = () => void floor.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  process.on('message', (message: unknown) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
}

if (process.send && process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  main().catch((error: unknown) => {
    console.error('bench api floor failed:', error);
    process.exit(1);
  });
}
