// Records the books the engine decided on (book-sampler.ts says which ticks) into spread_books, for backtests that
// replay what the engine saw. The tick path only samples and appends to a list; rows are written in batches, one
// write at a time, off that path. Only the engine leader records (the engine emits ticks only while it trades). The
// same instance thins the once-a-second rows after a day and deletes what is older than the retention.
import type { Observable, Subscription } from 'rxjs';
import { SPREAD_RAW_KEEP_MS } from '../../contract/spreads';
import type { Db } from '../db/client';
import {
  deleteSpreadBooksBefore,
  insertSpreadBooks,
  thinSpreadBooks,
  type SpreadBook,
} from '../db/repositories/spread-books';
import type { DecidedTick } from '../engine';
import type { EngineLogger } from '../engine/ports';
import { startBatchedRows } from './batched-rows';
import { BookSampler, nearDecision, type DecisionLevels } from './book-sampler';

export interface BookRecorderOptions {
  db: Db;
  /** The engine's decided ticks (engine.ticks$). */
  ticks$: Observable<DecidedTick>;
  /** The engine's decisions (engine.decisions): thresholds and trades in flight. */
  levels: DecisionLevels;
  /** The lowest threshold of a user with the default fee (contract/costs.ts costFloor). */
  floor: number;
  isLeader: () => boolean;
  /** Days kept (SPREAD_HISTORY_DAYS). */
  retentionDays: number;
  logger: Pick<EngineLogger, 'warn'>;
  flushMs?: number;
  maxBatch?: number;
  maintenanceMs?: number;
  /** Rows beyond this are dropped, oldest first, while the database cannot keep up. */
  maxPending?: number;
  now?: () => number;
  write?: (db: Db, rows: readonly SpreadBook[]) => Promise<void>;
}

export interface BookRecorder {
  flush(): Promise<void>;
  maintain(): Promise<void>;
  stop(): Promise<void>;
}

export function startBookRecorder(options: BookRecorderOptions): BookRecorder {
  const { db, isLeader, levels, floor } = options;
  const now = options.now ?? Date.now;
  const sampler = new BookSampler();
  const rows = startBatchedRows<SpreadBook>({
    db,
    isLeader,
    logger: options.logger,
    what: 'spread books',
    write: options.write ?? insertSpreadBooks,
    maxBatch: options.maxBatch ?? 2000,
    maxPending: options.maxPending ?? 50_000,
    ...(options.flushMs !== undefined && { flushMs: options.flushMs }),
    ...(options.maintenanceMs !== undefined && { maintenanceMs: options.maintenanceMs }),
    maintainRows: async () => {
      await thinSpreadBooks(db, new Date(now() - SPREAD_RAW_KEEP_MS));
      await deleteSpreadBooksBefore(db, new Date(now() - options.retentionDays * 24 * 3600 * 1000));
    },
  });

  const subscription: Subscription = options.ticks$.subscribe(({ tick, at }: DecidedTick) => {
    if (!isLeader()) return;
    const row = sampler.take(tick, at, nearDecision(tick, levels, floor));
    if (row) rows.offer(row);
  });

  return {
    flush: rows.flush,
    maintain: rows.maintain,
    stop: async () => {
      subscription.unsubscribe();
      await rows.stop();
    },
  };
}
