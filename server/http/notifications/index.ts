// Web push for the caller: the server's public VAPID key, this device's subscription (an endpoint the push service
// check allows, at most MAX_PUSH_DEVICES a user), the caller's preferences, and a test notification to every device
// of theirs, whose answer says nothing of what each push service answered.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimiterMemory, RateLimiterRes } from '../../security/rate-limiter';
import type { MessageResponse } from '../../../contract/api';
import {
  MAX_PUSH_DEVICES,
  NotificationPreferencesBody,
  PushSubscriptionBody,
  PushUnsubscribeBody,
  type NotificationPreferencesResponse,
  type TestNotificationResponse,
  type VapidKeyResponse,
} from '../../../contract/notifications';
import {
  deviceCount,
  preferencesOf,
  removeSubscription,
  savePreferences,
  saveSubscription,
} from '../../db/repositories/push';
import { testMessage } from '../../notifications/messages';
import type { PushService } from '../../notifications/push-service';
import { badRequest, conflict, HttpError } from '../plugins/http-error';

declare module 'fastify' {
  interface FastifyInstance {
    /** Web push to users' devices; the kill switch sends its outcome through it (server/notifications/index.ts). */
    push: PushService;
  }
}

/** The device's description as the browser sends it, without control characters, for the user's list of devices. */
const userAgentOf = (header: string | undefined) => (header ?? '').replace(/\p{Cc}/gu, '').slice(0, 200);

/**
 * Test notifications per user and minute. Push services throttle a sender that floods them, and that sender is this
 * server for every user: one person pressing the button in a loop must not delay everyone's trade notifications.
 * Counted per instance (a test is a button press, not money).
 */
export const TEST_NOTIFICATIONS_PER_MINUTE = 5;

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['notifications'];
  const testLimiter = new RateLimiterMemory({
    points: TEST_NOTIFICATIONS_PER_MINUTE,
    duration: 60,
    keyPrefix: 'push-test',
  });

  app.get(
    '/notifications/vapid-public-key',
    { preHandler: app.authenticate, schema: { tags, summary: 'The application server key a device subscribes with' } },
    async (): Promise<VapidKeyResponse> => ({ success: true, publicKey: app.push.publicKey }),
  );

  app.post(
    '/notifications/subscriptions',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: "Saves this device's push subscription for the caller", body: PushSubscriptionBody },
    },
    async (request, reply): Promise<MessageResponse> => {
      const { endpoint, keys } = request.body;
      const refusal = await app.push.refusalOf(endpoint);
      if (refusal) throw badRequest(refusal);
      const replaced = await saveSubscription(app.db, request.user.id, {
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        userAgent: userAgentOf(request.headers['user-agent']),
      });
      reply.code(201);
      const note = ` Your oldest device no longer gets them: notifications reach at most ${MAX_PUSH_DEVICES} devices.`;
      return { success: true, message: `Notifications are on for this device${replaced > 0 ? `.${note}` : ''}` };
    },
  );

  app.post(
    '/notifications/subscriptions/remove',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: "Removes one of the caller's devices (by its endpoint)", body: PushUnsubscribeBody },
    },
    async (request): Promise<MessageResponse> => {
      const removed = await removeSubscription(app.db, request.user.id, request.body.endpoint);
      return {
        success: true,
        message: removed ? 'Notifications are off for this device' : 'This device was not subscribed',
      };
    },
  );

  app.get(
    '/notifications/preferences',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: "The caller's notification choices and how many devices receive them" },
    },
    async (request): Promise<NotificationPreferencesResponse> => ({
      success: true,
      preferences: await preferencesOf(app.db, request.user.id),
      devices: await deviceCount(app.db, request.user.id),
    }),
  );

  app.put(
    '/notifications/preferences',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: "Changes some of the caller's notification choices", body: NotificationPreferencesBody },
    },
    async (request): Promise<NotificationPreferencesResponse> => ({
      success: true,
      preferences: await savePreferences(app.db, request.user.id, request.body),
      devices: await deviceCount(app.db, request.user.id),
      message: 'Notification preferences saved',
    }),
  );

  app.post(
    '/notifications/test',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: "Sends a test notification to every device of the caller's" },
    },
    async (request): Promise<TestNotificationResponse> => {
      try {
        await testLimiter.consume(request.user.id);
      } catch (refusal) {
        const seconds = refusal instanceof RateLimiterRes ? Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) : 60;
        throw new HttpError(
          429,
          `That is a lot of test notifications. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
          { 'retry-after': String(seconds) },
        );
      }
      const devices = await deviceCount(app.db, request.user.id);
      if (devices === 0) {
        throw conflict('No device of yours receives notifications yet. Turn notifications on for this device first.');
      }
      // What each push service answered is the server's business (logs, forgetting expired devices), not the caller's:
      // an answer per device would tell whoever registered an endpoint what the service behind it said.
      await app.push.send(request.user.id, testMessage());
      return {
        success: true,
        devices,
        message: `Test notification sent to your ${devices === 1 ? 'device' : `${devices} devices`}. If one does not show it, turn notifications off and on again there.`,
      };
    },
  );
};
