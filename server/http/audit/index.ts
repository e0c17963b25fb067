// Reading the audit log: admins search everyone's (GET /admin/audit), each user reads their own (GET /auth/activity).
// There is no route that edits or deletes a row; the table's trigger refuses it anyway.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditQuery, OwnActivityQuery, type AuditResponse } from '../../../contract/guard';
import { listAuditEvents, type AuditFilter } from '../../db/repositories/audit';

const pagination = (page: number, limit: number, total: number) => ({
  current: page,
  pages: Math.max(1, Math.ceil(total / limit)),
  total,
});

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/audit',
    {
      preHandler: [app.authenticate, app.requireAdmin],
      schema: {
        tags: ['admin'],
        summary: 'The audit log, newest first; filter by user name, action and date range',
        querystring: AuditQuery,
      },
    },
    async (request): Promise<AuditResponse> => {
      const q = request.query;
      const filter: AuditFilter = {
        page: q.page,
        limit: q.limit,
        ...(q.user?.trim() && { user: q.user }),
        ...(q.action && { action: q.action }),
        ...(q.from && { from: new Date(q.from) }),
        ...(q.to && { to: new Date(q.to) }),
      };
      const { events, total } = await listAuditEvents(app.db, filter);
      return { success: true, events, pagination: pagination(q.page, q.limit, total) };
    },
  );

  app.get(
    '/auth/activity',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: "The caller's own recent activity from the audit log",
        querystring: OwnActivityQuery,
      },
    },
    async (request): Promise<AuditResponse> => {
      const { page, limit } = request.query;
      const { events, total } = await listAuditEvents(app.db, { subjectId: request.user.id, page, limit });
      return { success: true, events, pagination: pagination(page, limit, total) };
    },
  );
};
