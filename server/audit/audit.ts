// The one way anything records an audit event: `audit(app, request, action, { subjectId, details })`. Who, from where
// (IP, user agent) and when are taken from the request; names are copied in so a row outlives the account.
// Details must never hold a secret value: callers pass field names, ids, amounts and reasons only.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditAction } from '../../contract/guard';
import { insertAuditEvent, usernamesOf } from '../db/repositories/audit';
import type { Db } from '../db/client';

export interface AuditEntry {
  /** The account concerned; the actor when omitted. */
  subjectId?: string | null;
  /** Name of the subject when it is no longer in the database (a deleted user) or unknown (a failed sign-in). */
  subjectName?: string;
  /** The actor when the request is not (yet) authenticated, e.g. a sign-in. */
  actorId?: string | null;
  details?: Record<string, unknown>;
  /** Write inside this transaction instead of app.db. */
  db?: Db;
}

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export async function audit(
  app: FastifyInstance,
  request: FastifyRequest,
  action: AuditAction,
  entry: AuditEntry = {},
): Promise<void> {
  const actorId = entry.actorId !== undefined ? entry.actorId : (request.user?.id ?? null);
  const subjectId = entry.subjectId !== undefined ? entry.subjectId : actorId;
  const db = entry.db ?? app.db;
  try {
    const names = await usernamesOf(db, [...new Set([actorId, subjectId].filter((id): id is string => id !== null))]);
    await insertAuditEvent(db, {
      action,
      actorId,
      actorName: (actorId && names.get(actorId)) || '',
      subjectId,
      subjectName: (subjectId && names.get(subjectId)) || clip(entry.subjectName ?? '', 254),
      ip: clip(request.ip ?? '', 64),
      userAgent: clip(request.headers['user-agent'] ?? '', 300),
      details: entry.details ?? {},
    });
  } catch (error) {
    // Inside a caller's transaction the failure must abort it (the action and its record go together).
    if (entry.db) throw error;
    // Outside one, the action already happened; a lost record is logged loudly rather than answered as a failure.
    request.log.error({ err: error, action }, 'could not record an audit event');
  }
}

/**
 * An action that did not come over HTTP (a Telegram command): no address; `via` stands where the user agent would.
 * A lost record is logged, as above.
 */
export async function auditVia(
  db: Db,
  log: { error(obj: object, msg: string): void },
  via: string,
  action: AuditAction,
  entry: { actorId: string | null; subjectId?: string | null; details?: Record<string, unknown> },
): Promise<void> {
  const subjectId = entry.subjectId !== undefined ? entry.subjectId : entry.actorId;
  try {
    const names = await usernamesOf(db, [
      ...new Set([entry.actorId, subjectId].filter((id): id is string => id !== null)),
    ]);
    await insertAuditEvent(db, {
      action,
      actorId: entry.actorId,
      actorName: (entry.actorId && names.get(entry.actorId)) || '',
      subjectId,
      subjectName: (subjectId && names.get(subjectId)) || '',
      ip: '',
      userAgent: via,
      details: entry.details ?? {},
    });
  } catch (error) {
    log.error({ err: error, action }, 'could not record an audit event');
  }
}
