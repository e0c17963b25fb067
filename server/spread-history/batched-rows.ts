// What both recorders share: rows appended on the tick path (an array push), written in batches one write at a time
// off that path, bounded while the database cannot keep up, and a maintenance step (retention) run now and then —
// all only while this instance leads the engine.
import type { Db } from '../db/client';
import type { EngineLogger } from '../engine/ports';

export interface BatchedRowsOptions<Row> {
  db: Db;
  /** True while this instance leads the engine; rows offered while it does not are dropped. */
  isLeader: () => boolean;
  logger: Pick<EngineLogger, 'warn'>;
  /** What the rows are, for the log ('spread samples', 'spread books'). */
  what: string;
  write: (db: Db, rows: readonly Row[]) => Promise<void>;
  /** Retention (and any roll-up) after the pending rows are written. */
  maintainRows: () => Promise<void>;
  maxBatch: number;
  maxPending: number;
  /** How often pending rows are written. */
  flushMs?: number;
  /** How often the maintenance runs. */
  maintenanceMs?: number;
}

export interface BatchedRows<Row> {
  /** Appends a row (when leading); a full batch is written at once. */
  offer(row: Row): void;
  /** Writes what is pending now and resolves when every write so far has finished. */
  flush(): Promise<void>;
  /** Runs the maintenance now (when leading), after the pending rows. */
  maintain(): Promise<void>;
  /** Stops the timers, writes what is pending and waits for the writes and the maintenance. */
  stop(): Promise<void>;
}

export function startBatchedRows<Row>(options: BatchedRowsOptions<Row>): BatchedRows<Row> {
  const { db, isLeader, logger, what, write, maxBatch, maxPending } = options;
  let pending: Row[] = [];
  let writes: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (pending.length > 0) {
      const batch = pending;
      pending = [];
      writes = writes.then(() =>
        write(db, batch).catch((error: unknown) =>
          logger.warn({ err: error, rows: batch.length }, `could not record ${what}; dropped them`),
        ),
      );
    }
    return writes;
  };

  const offer = (row: Row) => {
    if (!isLeader()) return;
    pending.push(row);
    if (pending.length > maxPending) pending.splice(0, pending.length - maxPending);
    if (pending.length >= maxBatch) void flush();
  };

  const maintainNow = async (): Promise<void> => {
    if (!isLeader()) return;
    await flush();
    try {
      await options.maintainRows();
    } catch (error) {
      logger.warn({ err: error }, `${what} maintenance failed; will try again`);
    }
  };
  // One maintenance at a time in this process (the database serialises those of different instances).
  let maintenance: Promise<void> = Promise.resolve();
  const maintain = (): Promise<void> => (maintenance = maintenance.then(maintainNow));

  const flushTimer = setInterval(() => void flush(), options.flushMs ?? 5000);
  const maintenanceTimer = setInterval(() => void maintain(), options.maintenanceMs ?? 5 * 60_000);
  flushTimer.unref();
  maintenanceTimer.unref();
  void maintain();

  return {
    offer,
    flush,
    maintain,
    stop: async () => {
      clearInterval(flushTimer);
      clearInterval(maintenanceTimer);
      await flush();
      await maintenance;
    },
  };
}
