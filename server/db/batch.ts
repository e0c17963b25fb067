// Batching for the engine's hot writes and reads. On a burst (hundreds of users acting on one tick) every trade writes
// ahead, records fills and saves its steps; one transaction each means one commit (a WAL flush) and a pooled
// connection each, and the pool's queue becomes the engine's latency. Here the work that arrives within one turn of
// the event loop is grouped:
// - WriteBatcher: jobs run in one transaction, one after another on one connection, each inside a savepoint so a job
//   that throws (a refused paper fill) rolls back alone; one commit for all. Jobs of one lane (a user) keep their order
//   across batches. If the batch transaction itself fails (connection lost, serialisation), every job is run again on
//   its own, in its own transaction, so one bad job never fails the others. A job's promise settles after the commit.
// - ReadBatcher: keys asked for within one turn are read with one query (fetchMany), each caller getting its own row.
import type { Db } from './client';

type Job = {
  lane: string;
  work: (tx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

export interface WriteBatcherOptions {
  /** Most jobs in one transaction. */
  maxBatch?: number;
  /** Batches in flight at once (each holds one pooled connection). */
  maxInFlight?: number;
}

export class WriteBatcher {
  private queue: Job[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Lanes with a job in a batch that has not committed yet: their next job waits for it (order within a lane). */
  private readonly busyLanes = new Set<string>();
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  constructor(
    private readonly db: Db,
    options: WriteBatcherOptions = {},
  ) {
    // Small enough that a batch commits within a few milliseconds, few enough that reads still find a connection.
    this.maxBatch = options.maxBatch ?? 50;
    this.maxInFlight = options.maxInFlight ?? 2;
  }

  /** Runs `work` in a transaction shared with other jobs; resolves with its result once that transaction committed. */
  run<T>(lane: string, work: (tx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ lane, work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch: Job[] = [];
      const rest: Job[] = [];
      const lanes = new Set<string>();
      for (const job of this.queue) {
        // One job per lane per batch, and none of a lane still committing: a lane's writes land in order.
        if (batch.length < this.maxBatch && !lanes.has(job.lane) && !this.busyLanes.has(job.lane)) {
          batch.push(job);
          lanes.add(job.lane);
        } else rest.push(job);
      }
      if (batch.length === 0) return;
      this.queue = rest;
      for (const lane of lanes) this.busyLanes.add(lane);
      this.inFlight += 1;
      void this.runBatch(batch).finally(() => {
        for (const lane of lanes) this.busyLanes.delete(lane);
        this.inFlight -= 1;
        if (this.queue.length > 0) this.schedule();
      });
    }
  }

  private async runBatch(batch: Job[]): Promise<void> {
    if (batch.length === 1) return this.runAlone(batch[0] as Job);
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await this.db.transaction(async (tx) => {
        for (const job of batch) {
          try {
            outcomes.push({ ok: true, value: await tx.transaction((savepoint) => job.work(savepoint as Db)) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch {
      // The batch as a whole did not commit: each job again, on its own.
      await Promise.all(batch.map((job) => this.runAlone(job)));
      return;
    }
    batch.forEach((job, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) job.resolve(outcome.value);
      else job.reject(outcome?.error);
    });
  }

  private async runAlone(job: Job): Promise<void> {
    try {
      job.resolve(await this.db.transaction((tx) => job.work(tx as Db)));
    } catch (error) {
      job.reject(error);
    }
  }
}

/** Many single-row inserts arriving together become one multi-row insert; alone again if that one fails. */
export class InsertBatcher<Row, Out> {
  private pending: Array<{ row: Row; resolve: (out: Out) => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    /** Inserts the rows and answers one result per row, in the same order. */
    private readonly insertMany: (rows: Row[]) => Promise<Out[]>,
    private readonly maxBatch = 500,
  ) {}

  insert(row: Row): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        const all = this.pending;
        this.pending = [];
        for (let i = 0; i < all.length; i += this.maxBatch) void this.write(all.slice(i, i + this.maxBatch));
      });
    });
  }

  private async write(batch: typeof this.pending): Promise<void> {
    try {
      const out = await this.insertMany(batch.map((b) => b.row));
      batch.forEach((b, i) => b.resolve(out[i] as Out));
    } catch (error) {
      if (batch.length === 1) return (batch[0] as (typeof batch)[number]).reject(error);
      await Promise.all(
        batch.map((b) =>
          this.insertMany([b.row]).then(
            (out) => b.resolve(out[0] as Out),
            (e: unknown) => b.reject(e),
          ),
        ),
      );
    }
  }
}

/** Reads of single keys arriving within one turn become one read of all of them. */
export class ReadBatcher<K, V> {
  private pending = new Map<
    string,
    { key: K; waiters: Array<{ resolve: (v: V) => void; reject: (e: unknown) => void }> }
  >();
  private scheduled = false;

  constructor(
    /** Reads every key at once; a key missing from the answer gets `missing`. */
    private readonly fetchMany: (keys: K[]) => Promise<Map<string, V>>,
    private readonly keyOf: (key: K) => string,
    private readonly missing: V,
    private readonly maxBatch = 500,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const id = this.keyOf(key);
      const entry = this.pending.get(id) ?? { key, waiters: [] };
      entry.waiters.push({ resolve, reject });
      this.pending.set(id, entry);
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        const all = [...this.pending.values()];
        this.pending = new Map();
        for (let i = 0; i < all.length; i += this.maxBatch) void this.read(all.slice(i, i + this.maxBatch));
      });
    });
  }

  private async read(
    entries: Array<{ key: K; waiters: Array<{ resolve: (v: V) => void; reject: (e: unknown) => void }> }>,
  ): Promise<void> {
    try {
      const found = await this.fetchMany(entries.map((e) => e.key));
      for (const e of entries) {
        const value = found.get(this.keyOf(e.key)) ?? this.missing;
        for (const w of e.waiters) w.resolve(value);
      }
    } catch (error) {
      for (const e of entries) for (const w of e.waiters) w.reject(error);
    }
  }
}
