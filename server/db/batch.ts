// Batching for the engine's hot writes and reads. On a burst (hundreds of users acting on one tick) every trade writes
// ahead, records fills and saves its steps; a statement each means a round trip each (and a commit, a WAL flush, for
// each one alone), and on a pool of ten connections the queue becomes the engine's latency. Here the work that arrives
// within one turn of the event loop is grouped:
// - StatementBatcher: the items of one turn are written by one statement (set-based: `unnest` of arrays), which is
//   atomic on its own: no transaction, no savepoint, one round trip for the batch. Items of one lane (a user, or a
//   user's account on one venue) keep their order across batches. If the statement fails (connection lost, a
//   constraint, a deadlock), each item is written again on its own, so one bad item never fails the others. An item's
//   promise settles once the statement has committed.
// - InsertBatcher: many single-row inserts arriving together become one multi-row insert.
// - ReadBatcher: keys asked for within one turn are read with one query (fetchMany), each caller getting its own row.

type Item<In, Out> = {
  lane: string;
  item: In;
  resolve: (value: Out) => void;
  reject: (error: unknown) => void;
};

export interface StatementBatcherOptions {
  /** Most items in one statement. */
  maxBatch?: number;
  /** Statements in flight at once (each holds one pooled connection). */
  maxInFlight?: number;
}

export class StatementBatcher<In, Out> {
  private queue: Array<Item<In, Out>> = [];
  private inFlight = 0;
  private scheduled = false;
  /** Lanes with an item in a statement that has not committed yet: their next item waits for it (order within a lane). */
  private readonly busyLanes = new Set<string>();
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  constructor(
    /** Writes every item with one statement and answers one result per item, in the same order. */
    private readonly writeMany: (items: In[]) => Promise<Out[]>,
    options: StatementBatcherOptions = {},
  ) {
    // One statement per batch costs a round trip, not one per item: batches can be large and still commit quickly.
    this.maxBatch = options.maxBatch ?? 200;
    this.maxInFlight = options.maxInFlight ?? 2;
  }

  /** Writes `item` in a statement shared with other items; resolves with its result once that statement committed. */
  run(lane: string, item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ lane, item, resolve, reject });
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
      const batch: Array<Item<In, Out>> = [];
      const rest: Array<Item<In, Out>> = [];
      const lanes = new Set<string>();
      for (const job of this.queue) {
        // One item per lane per statement, and none of a lane still committing: a lane's writes land in order.
        if (batch.length < this.maxBatch && !lanes.has(job.lane) && !this.busyLanes.has(job.lane)) {
          batch.push(job);
          lanes.add(job.lane);
        } else rest.push(job);
      }
      if (batch.length === 0) return;
      this.queue = rest;
      for (const lane of lanes) this.busyLanes.add(lane);
      this.inFlight += 1;
      void this.write(batch).finally(() => {
        for (const lane of lanes) this.busyLanes.delete(lane);
        this.inFlight -= 1;
        if (this.queue.length > 0) this.schedule();
      });
    }
  }

  private async write(batch: Array<Item<In, Out>>): Promise<void> {
    let out: Out[];
    try {
      out = await this.writeMany(batch.map((b) => b.item));
    } catch (error) {
      if (batch.length === 1) return (batch[0] as Item<In, Out>).reject(error);
      // The statement as a whole did not commit: each item again, on its own.
      await Promise.all(batch.map((b) => this.write([b])));
      return;
    }
    batch.forEach((b, i) => b.resolve(out[i] as Out));
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
