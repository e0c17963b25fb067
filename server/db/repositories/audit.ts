// The audit log: appends, filtered pages, and the retention prune (the only delete the table's trigger lets through).
import { and, count, desc, eq, gte, ilike, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditEvent } from '../../../contract/guard';
import type { Db } from '../client';
import { auditEvents, users, type AuditEventRow, type NewAuditEventRow } from '../schema';

export async function insertAuditEvent(db: Db, row: NewAuditEventRow): Promise<void> {
  await db.insert(auditEvents).values(row);
}

/** Usernames of the given ids (those that still exist). */
export async function usernamesOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.username]));
}

export interface AuditFilter {
  /** Part of the actor's or the subject's name. */
  user?: string;
  /** Only events about this account (a user's own activity). */
  subjectId?: string;
  action?: AuditAction;
  from?: Date;
  to?: Date;
  page: number;
  limit: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listAuditEvents(db: Db, filter: AuditFilter): Promise<{ events: AuditEvent[]; total: number }> {
  const where: SQL[] = [];
  if (filter.user) {
    const needle = `%${escapeLike(filter.user.trim())}%`;
    const named = or(ilike(auditEvents.actorName, needle), ilike(auditEvents.subjectName, needle));
    if (named) where.push(named);
  }
  if (filter.subjectId) where.push(eq(auditEvents.subjectId, filter.subjectId));
  if (filter.action) where.push(eq(auditEvents.action, filter.action));
  if (filter.from) where.push(gte(auditEvents.at, filter.from));
  if (filter.to) where.push(lte(auditEvents.at, filter.to));
  const condition = where.length > 0 ? and(...where) : undefined;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(auditEvents)
      .where(condition)
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(filter.limit)
      .offset((filter.page - 1) * filter.limit),
    db.select({ n: count() }).from(auditEvents).where(condition),
  ]);
  return { events: rows.map(toAuditEvent), total: totals[0]?.n ?? 0 };
}

function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    action: row.action as AuditAction,
    actorId: row.actorId,
    actorName: row.actorName,
    subjectId: row.subjectId,
    subjectName: row.subjectName,
    ip: row.ip,
    userAgent: row.userAgent,
    details: row.details,
  };
}

/**
 * Deletes rows older than `days`. The flag is local to this transaction, so no other statement (and no API route)
 * can delete audit rows. Answers how many were removed.
 */
export async function pruneAuditEvents(db: Db, days: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('app.audit_prune', 'on', true)`);
    const removed = await tx
      .delete(auditEvents)
      .where(lt(auditEvents.at, sql`now() - make_interval(days => ${days})`))
      .returning({ id: auditEvents.id });
    return removed.length;
  });
}
