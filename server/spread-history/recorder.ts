// Records what the market did: every symbol's venue prices and spread, one sample a second, from the engine's price
// stream into the database. The tick path only folds a price into the open second's sample (a map write); samples
// are written in batches, one write at a time, off that path. Only the engine leader records, so two instances
// never write two histories (writes are idempotent on symbol and second besides). The same instance rolls samples
// older than a day up into minutes and deletes what is older than the retention.
import { filter, map, type Observable, type Subscription } from 'rxjs';
import type { SymbolId } from '../../contract/domain';
import type { SymbolPrice } from '../../contract/entities';
import { SERVER_EVENTS } from '../../contract/events';
import { nextSpreadSample, SPREAD_RAW_KEEP_MS, SPREAD_ROLLUP_SECONDS, type SpreadSample } from '../../contract/spreads';
import type { Db } from '../db/client';
import { deleteSpreadHistoryBefore, insertSpreadSamples, rollUpSpreadSamples } from '../db/repositories/spread-history';
import type { EngineEvent } from '../engine/events';
import type { EngineLogger } from '../engine/ports';
import { startBatchedRows } from './batched-rows';

export interface SpreadRecorderOptions {
  db: Db;
  /** The engine's price updates (pricesOf(engine.events$)). */
  prices$: Observable<SymbolPrice>;
  /** True while this instance leads the engine; samples seen while it does not are dropped. */
  isLeader: () => boolean;
  /** Days of history kept (SPREAD_HISTORY_DAYS). */
  retentionDays: number;
  logger: Pick<EngineLogger, 'warn'>;
  /** How often pending samples are written. */
  flushMs?: number;
  /** A batch this large is written at once, without waiting for the next flush. */
  maxBatch?: number;
  /** How often roll-up and retention run. */
  maintenanceMs?: number;
  /** Pending samples beyond this are dropped, oldest first, while the database cannot keep up. */
  maxPending?: number;
  now?: () => number;
  /** Writes a batch; the repository's insert when omitted (a test counts the batches). */
  write?: (db: Db, samples: readonly SpreadSample[]) => Promise<void>;
}

export interface SpreadRecorder {
  /** Writes what is pending now and resolves when every write so far has finished. */
  flush(): Promise<void>;
  /** Rolls up and applies the retention now (when leading). */
  maintain(): Promise<void>;
  /** Stops listening, writes the seconds still open and waits for the writes. */
  stop(): Promise<void>;
}

/** The price updates among the engine's events. */
export function pricesOf(events$: Observable<EngineEvent>): Observable<SymbolPrice> {
  return events$.pipe(
    filter(
      (e): e is Extract<EngineEvent, { type: typeof SERVER_EVENTS.priceUpdate }> =>
        e.type === SERVER_EVENTS.priceUpdate,
    ),
    map((e) => e.price),
  );
}

export function startSpreadRecorder(options: SpreadRecorderOptions): SpreadRecorder {
  const { db } = options;
  const now = options.now ?? Date.now;
  const open = new Map<SymbolId, SpreadSample>();
  const rows = startBatchedRows<SpreadSample>({
    db,
    isLeader: options.isLeader,
    logger: options.logger,
    what: 'spread samples',
    write: options.write ?? insertSpreadSamples,
    maxBatch: options.maxBatch ?? 500,
    maxPending: options.maxPending ?? 20_000,
    ...(options.flushMs !== undefined && { flushMs: options.flushMs }),
    ...(options.maintenanceMs !== undefined && { maintenanceMs: options.maintenanceMs }),
    maintainRows: async () => {
      const minuteMs = SPREAD_ROLLUP_SECONDS * 1000;
      const rawCutoff = Math.floor((now() - SPREAD_RAW_KEEP_MS) / minuteMs) * minuteMs;
      await rollUpSpreadSamples(db, new Date(rawCutoff));
      await deleteSpreadHistoryBefore(db, new Date(now() - options.retentionDays * 24 * 3600 * 1000));
    },
  });

  const subscription: Subscription = options.prices$.subscribe((price) => {
    const sample = nextSpreadSample(open, price);
    if (sample) rows.offer(sample);
  });

  return {
    flush: rows.flush,
    maintain: rows.maintain,
    stop: async () => {
      subscription.unsubscribe();
      // The seconds still open are complete as far as this instance will ever know.
      for (const sample of open.values()) rows.offer(sample);
      open.clear();
      await rows.stop();
    },
  };
}
