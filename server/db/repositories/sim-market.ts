// The simulated market's saved state (sim_market): read once at start and on a failover, written about every second
// by the instance that trades and once more on shutdown.
import { sql } from 'drizzle-orm';
import { isKnownSymbol, type SymbolId } from '../../../contract/pairs';
import type { SavedSimMarket } from '../../venues/sim/market';
import type { SymbolState } from '../../venues/sim/model';
import type { Db } from '../client';
import { simMarket } from '../schema/sim-market';

/** Every saved symbol's state, and when the newest of them was saved (null: nothing saved yet). */
export async function loadSimMarket(db: Db): Promise<{ state: SavedSimMarket; savedAt: Date | null }> {
  const rows = await db.select().from(simMarket);
  const state: SavedSimMarket = {};
  let savedAt: Date | null = null;
  for (const row of rows) {
    if (!isKnownSymbol(row.symbol)) continue;
    state[row.symbol] = row.state;
    if (!savedAt || row.savedAt > savedAt) savedAt = row.savedAt;
  }
  return { state, savedAt };
}

export async function saveSimMarket(db: Db, state: Record<string, SymbolState>, at: Date = new Date()): Promise<void> {
  const rows = Object.entries(state)
    .filter((entry): entry is [SymbolId, SymbolState] => isKnownSymbol(entry[0]))
    .map(([symbol, symbolState]) => ({ symbol, state: symbolState, savedAt: at }));
  if (rows.length === 0) return;
  await db
    .insert(simMarket)
    .values(rows)
    .onConflictDoUpdate({
      target: simMarket.symbol,
      set: { state: sql`excluded.state`, savedAt: sql`excluded.saved_at` },
    });
}
