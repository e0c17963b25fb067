// GET /api/admin/engine: the server instances on the database and the engine shards each trades (ENGINE_SHARDS).
import { z } from 'zod';

export const EngineInstanceSchema = z.object({
  id: z.string().describe('The instance, a random id taken at its start'),
  host: z.string().describe('The machine (host name) it runs on'),
  started: z.string().describe('When it started (ISO)'),
  engine: z.boolean().describe('Whether it runs the trading engine (ENGINE=on)'),
  shards: z.array(z.number().int()).describe('The engine shards it trades now; [] while standing by or ENGINE=off'),
  self: z.boolean().describe('The instance answering this request'),
});
export type EngineInstance = z.infer<typeof EngineInstanceSchema>;

export const EngineInstancesSchema = z.object({
  success: z.literal(true),
  shardCount: z.number().int().describe('How many shards the users are split into (ENGINE_SHARDS)'),
  instances: z.array(EngineInstanceSchema),
  unheld: z.array(z.number().int()).describe('Shards no instance trades now (their users wait for a taker)'),
});
export type EngineInstancesResponse = z.infer<typeof EngineInstancesSchema>;
