// This process's row in the instance registry (server/db/schema/engine-instances.ts): written at start, again every
// heartbeat and whenever its engine shards change, deleted on a clean shutdown. A write that fails is logged and
// tried again on the next beat; the registry only informs admins, trading never depends on it.
import { hostname } from 'node:os';
import type { Db } from '../db/client';
import { dropInstance, INSTANCE_HEARTBEAT_MS, pruneInstances, saveInstance } from '../db/repositories/engine-instances';

export interface InstanceEngine {
  readonly heldShards: { held: number[]; count: number };
  readonly lockPid: number | null;
}

export interface InstanceRegistry {
  readonly id: string;
  /** Write the row now (the engine's shards changed). */
  beat(): void;
  stop(): Promise<void>;
}

const DAY_MS = 24 * 3600_000;

export function startInstanceRegistry(options: {
  /** A random id taken at start (randomUUID). */
  id: string;
  db: Db;
  engine: () => InstanceEngine | null;
  shardCount: number;
  logger: { warn(obj: object, msg: string): void };
}): InstanceRegistry {
  const { id } = options;
  const startedAt = new Date();
  const host = hostname();
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;
  let failing = false;

  const write = async () => {
    const engine = options.engine();
    try {
      await saveInstance(options.db, {
        id,
        host,
        startedAt,
        engine: engine !== null,
        shards: engine?.heldShards.held ?? [],
        shardCount: options.shardCount,
        lockPid: engine?.lockPid ?? null,
      });
      failing = false;
    } catch (error) {
      if (!failing) options.logger.warn({ err: error }, 'could not write this instance to the instance registry');
      failing = true;
    }
  };
  // One write at a time, in order: the last one always carries the newest shards.
  const beat = () => {
    if (stopped) return;
    writing = writing.then(write);
  };
  beat();
  void pruneInstances(options.db, new Date(Date.now() - DAY_MS)).catch(() => undefined);
  const timer = setInterval(beat, INSTANCE_HEARTBEAT_MS);
  timer.unref();

  return {
    id,
    beat,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await writing;
      await dropInstance(options.db, id).catch(() => undefined);
    },
  };
}
