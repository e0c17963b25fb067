// Direct inserts for the API suites: users and trades written straight into the tables, so a test states exactly
// the rows it reads back.
import { randomUUID } from 'node:crypto';
import type { SymbolId, TradeStatus } from '../../../contract/domain';
import type { Db } from '../../../server/db/client';
import { trades, type NewTradeRow } from '../../../server/db/schema/trades';
import { users } from '../../../server/db/schema/users';

export async function insertUser(db: Db, name: string, role: 'user' | 'admin' = 'user'): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({ username: name, email: `${name}@example.test`, passwordHash: 'not-a-hash', role })
    .returning({ id: users.id });
  if (!row) throw new Error('user insert returned nothing');
  return row.id;
}

export interface TradeSeed {
  status?: TradeStatus;
  symbol?: SymbolId;
  totalAmount?: string;
  arbitrageSpread?: string;
  actualProfit?: string;
  /** Creation time; defaults to one second apart in insertion order, the last newest. */
  createdAt?: Date;
  /** Its last change; the database's now() unless given. */
  updatedAt?: Date;
  /** When it finished; half a second after its creation for a finished trade unless given. */
  closedAt?: Date | null;
}

let tradeCounter = 0;

/** Inserts trades for a user; returns their ids in the order given. */
export async function insertTrades(
  db: Db,
  userId: string,
  seeds: TradeSeed[],
  base = Date.UTC(2026, 0, 1),
): Promise<string[]> {
  if (seeds.length === 0) return [];
  const rows: NewTradeRow[] = seeds.map((seed, i) => ({
    id: randomUUID(),
    tradeId: `T-${Date.now().toString(36)}-${(tradeCounter++).toString(36)}`,
    userId,
    symbol: seed.symbol ?? 'BTC/USDT',
    status: seed.status ?? 'completed',
    totalAmount: seed.totalAmount ?? '100',
    arbitrageSpread: seed.arbitrageSpread ?? '0.003',
    actualProfit: seed.actualProfit ?? '0',
    createdAt: seed.createdAt ?? new Date(base + i * 1000),
    ...(seed.updatedAt && { updatedAt: seed.updatedAt }),
    closedAt:
      seed.closedAt !== undefined
        ? seed.closedAt
        : (seed.status ?? 'completed') === 'pending'
          ? null
          : new Date((seed.createdAt?.getTime() ?? base + i * 1000) + 500),
  }));
  for (let i = 0; i < rows.length; i += 1000) await db.insert(trades).values(rows.slice(i, i + 1000));
  return rows.map((r) => r.id as string);
}
