import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The server instances running on this database, each writing its own row every few seconds (a heartbeat) so admins
 * see which instance trades which engine shards (GET /api/admin/engine). A row not seen for a while belongs to an
 * instance that stopped; it is left out of the answer and deleted after a day.
 */
export const engineInstances = pgTable('engine_instances', {
  id: uuid('id').primaryKey(),
  host: text('host').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  /** ENGINE=on: this instance runs the trading engine (and may hold shards). */
  engine: boolean('engine').notNull(),
  /** The shard numbers it trades, as it last wrote them. */
  shards: jsonb('shards').$type<number[]>().notNull().default([]),
  /** How many shards the users are split into on this instance (ENGINE_SHARDS). */
  shardCount: integer('shard_count').notNull().default(1),
  /** PostgreSQL backend pid of the session holding its engine locks: pg_locks says what it holds right now. */
  lockPid: integer('lock_pid'),
  seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type EngineInstanceRow = typeof engineInstances.$inferSelect;
