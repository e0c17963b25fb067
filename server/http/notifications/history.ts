// The caller's notifications history (contract/notification-history.ts): a page of what they were sent, newest first,
// with the unread count; marking some or all read. Writing it down is the push service's wrapper's
// (server/notifications/history.ts); these routes only read and mark.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Subject } from 'rxjs';
import {
  MarkNotificationsReadBody,
  NotificationsQuery,
  type NotificationsReadResponse,
  type NotificationsResponse,
  type SentNotification,
} from '../../../contract/notification-history';
import { countUnread, listNotifications, markRead } from '../../db/repositories/notification-history';

declare module 'fastify' {
  interface FastifyInstance {
    /** A notification just written down for a user; the realtime gateway tells that user's open apps. */
    notificationsSent$: Subject<{ userId: string; notification: SentNotification }>;
  }
}

export const notificationHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['notifications'];

  app.get(
    '/notifications',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'The notifications the caller was sent, newest first, a page at a time, with the unread count',
        querystring: NotificationsQuery,
      },
    },
    async (request): Promise<NotificationsResponse> => {
      const { cursor, limit } = request.query;
      const [page, unread] = await Promise.all([
        listNotifications(app.db, request.user.id, { cursor, limit }),
        countUnread(app.db, request.user.id),
      ]);
      return { success: true, ...page, unread };
    },
  );

  app.post(
    '/notifications/read',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: "Marks some of the caller's notifications read", body: MarkNotificationsReadBody },
    },
    async (request): Promise<NotificationsReadResponse> => {
      const marked = await markRead(app.db, request.user.id, request.body.ids);
      return { success: true, marked, unread: await countUnread(app.db, request.user.id) };
    },
  );

  app.post(
    '/notifications/read-all',
    { preHandler: app.authenticate, schema: { tags, summary: "Marks all of the caller's notifications read" } },
    async (request): Promise<NotificationsReadResponse> => {
      const marked = await markRead(app.db, request.user.id);
      return { success: true, marked, unread: 0 };
    },
  );
};
