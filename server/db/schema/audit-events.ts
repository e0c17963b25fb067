import { index, jsonb, pgTable, text, timestamp, uuid, bigserial } from 'drizzle-orm/pg-core';

/**
 * Append-only record of security- and money-relevant actions. No foreign keys: a row outlives the account it names
 * (an audit trail that vanished with the user would defeat its purpose), so names are copied in at write time.
 * A trigger (migration 0003) refuses UPDATE and DELETE except for the retention prune (server/audit/retention.ts).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Who acted (null: nobody signed in, e.g. a failed sign-in). */
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    /** The account the event concerns (the actor itself, or the user an admin acted on). */
    subjectId: uuid('subject_id'),
    subjectName: text('subject_name').notNull().default(''),
    action: text('action').notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** Non-secret details (which fields changed, a trade id, a reason). Never a secret value. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at),
    index('audit_events_subject_idx').on(t.subjectId, t.at),
    index('audit_events_action_idx').on(t.action, t.at),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEventRow = typeof auditEvents.$inferInsert;
