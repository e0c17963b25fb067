// GET /api/admin/engine: which server instances run on this database and which engine shards each trades now, for
// admins. On PostgreSQL the shards come from the advisory locks each instance's lock session holds this moment, so a
// killed instance shows none at once (its row stays listed until it goes stale).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EngineInstancesSchema, type EngineInstancesResponse } from '../../../contract/engine-instances';
import {
  INSTANCE_STALE_MS,
  liveInstances,
  shardsByLockPid,
  type InstanceRow,
} from '../../db/repositories/engine-instances';
import { ENGINE_LOCK_KEY } from '../../engine/leader';
import { SHARD_LOCK_CLASS } from '../../engine/shard-locks';

export const engineInstanceRoutes: FastifyPluginAsyncZod<{ instanceId: string | null }> = async (app, options) => {
  app.get(
    '/admin/engine',
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['admin'],
        summary: 'The server instances and the engine shards each trades (ENGINE_SHARDS)',
        response: { 200: EngineInstancesSchema },
      },
    },
    async (): Promise<EngineInstancesResponse> => {
      const rows = await liveInstances(app.db, new Date(Date.now() - INSTANCE_STALE_MS));
      const byPid = app.config.databaseUrl ? await shardsByLockPid(app.db, SHARD_LOCK_CLASS, ENGINE_LOCK_KEY) : null;
      const shardsOf = (row: InstanceRow) =>
        !byPid ? row.shards : row.lockPid === null ? [] : (byPid.get(row.lockPid) ?? []);
      const instances = rows.map((row) => ({
        id: row.id,
        host: row.host,
        started: row.startedAt.toISOString(),
        engine: row.engine,
        shards: row.engine ? shardsOf(row) : [],
        self: row.id === options.instanceId,
      }));
      const held = new Set(instances.flatMap((i) => i.shards));
      const shardCount = app.config.engineShards;
      const unheld = Array.from({ length: shardCount }, (_, s) => s).filter((s) => !held.has(s));
      return { success: true, shardCount, instances, unheld };
    },
  );
};
