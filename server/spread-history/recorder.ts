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
  const { db, isLeader, logger } = options;
  const maxBatch = options.maxBatch ?? 500;
  const maxPending = options.maxPending ?? 20_000;
  const now = options.now ?? Date.now;
  const write = options.write ?? insertSpreadSamples;
  const open = new Map<SymbolId, SpreadSample>();
  let pending: SpreadSample[] = [];
  let writes: Promise<void> = Promise.resolve();

  const writePending = (): Promise<void> => {
    if (pending.length > 0) {
      const batch = pending;
      pending = [];
      writes = writes.then(() =>
        write(db, batch).catch((error: unknown) =>
          logger.warn({ err: error, samples: batch.length }, 'could not record spread samples; dropped them'),
        ),
      );
    }
    return writes;
  };

  const take = (sample: SpreadSample | null) => {
    if (!sample || !isLeader()) return;
    pending.push(sample);
    if (pending.length > maxPending) pending.splice(0, pending.length - maxPending);
    if (pending.length >= maxBatch) void writePending();
  };

  const maintainNow = async (): Promise<void> => {
    if (!isLeader()) return;
    await writePending();
    const minuteMs = SPREAD_ROLLUP_SECONDS * 1000;
    const rawCutoff = Math.floor((now() - SPREAD_RAW_KEEP_MS) / minuteMs) * minuteMs;
    try {
      await rollUpSpreadSamples(db, new Date(rawCutoff));
      await deleteSpreadHistoryBefore(db, new Date(now() - options.retentionDays * 24 * 3600 * 1000));
    } catch (error) {
      logger.warn({ err: error }, 'spread history roll-up failed; will try again');
    }
  };
  // One maintenance at a time in this process (the database serialises those of different instances).
  let maintenance: Promise<void> = Promise.resolve();
  const maintain = (): Promise<void> => (maintenance = maintenance.then(maintainNow));

  const subscription: Subscription = options.prices$.subscribe((price) => take(nextSpreadSample(open, price)));
  const flushTimer = setInterval(() => void writePending(), options.flushMs ?? 5000);
  const maintenanceTimer = setInterval(() => void maintain(), options.maintenanceMs ?? 5 * 60_000);
  flushTimer.unref();
  maintenanceTimer.unref();
  void maintain();

  return {
    flush: writePending,
    maintain,
    stop: async () => {
      subscription.unsubscribe();
      clearInterval(flushTimer);
      clearInterval(maintenanceTimer);
      // The seconds still open are complete as far as this instance will ever know.
      for (const sample of open.values()) take(sample);
      open.clear();
      await writePending();
      await maintenance;
    },
  };
}
