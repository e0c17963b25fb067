// Sends a PushMessage to a user's devices through their push services (web-push: RFC 8291 aes128gcm encryption,
// RFC 8292 VAPID), honouring the user's preferences, and forgets a device whose push service answers 404 or 410
// (the subscription expired or the user revoked it): the next event does not try it again.
import type { Agent } from 'node:https';
import webpush, { WebPushError } from 'web-push';
import type { PushMessage } from '../../contract/notifications';
import type { Db } from '../db/client';
import {
  dropSubscriptions,
  markSent,
  preferencesOf,
  subscribedUserIds,
  subscriptionsOf,
} from '../db/repositories/push';
import type { VapidKeys } from './vapid';

export interface SendReport {
  /** Devices the push service accepted the message for. */
  sent: number;
  /** Devices forgotten because their push service said the subscription is gone. */
  removed: number;
  /** Devices that failed otherwise (push service down, timeout); kept, tried again on the next event. */
  failed: number;
  /** The user turned this kind off. */
  muted?: boolean;
}

export interface PushService {
  readonly publicKey: string;
  /** To every device of the user, unless the user turned this kind off (a test is always sent). */
  send(userId: string, message: PushMessage): Promise<SendReport>;
  /** To every user with a device (an admin's global halt), each by their own preferences. */
  broadcast(message: PushMessage): Promise<SendReport>;
}

export interface PushLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface PushServiceOptions {
  db: Db;
  keys: VapidKeys;
  logger: PushLogger;
  /** TLS agent for the push services (tests trust their local endpoint's certificate with it). */
  agent?: Agent;
  /** How long a push service may take to answer. */
  timeoutMs?: number;
}

/** Seconds a push service keeps an undelivered message (a phone offline for a while still hears of a halt). */
const TTL_SECONDS = 24 * 3600;

export function createPushService(options: PushServiceOptions): PushService {
  const { db, keys, logger } = options;
  const vapidDetails = { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey };

  async function send(userId: string, message: PushMessage): Promise<SendReport> {
    if (message.kind !== 'test' && !(await preferencesOf(db, userId))[message.kind])
      return { sent: 0, removed: 0, failed: 0, muted: true };
    const devices = await subscriptionsOf(db, userId);
    const payload = JSON.stringify(message);
    const results = await Promise.all(
      devices.map(async (device) => {
        try {
          await webpush.sendNotification(
            { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
            payload,
            {
              vapidDetails,
              TTL: TTL_SECONDS,
              // Money events should wake a sleeping phone; a test or a completed trade can wait for the next wake-up.
              urgency: message.kind === 'tradeCompleted' || message.kind === 'test' ? 'normal' : 'high',
              timeout: options.timeoutMs ?? 10_000,
              ...(options.agent && { agent: options.agent }),
            },
          );
          return { id: device.id, outcome: 'sent' as const };
        } catch (error) {
          const status = error instanceof WebPushError ? error.statusCode : undefined;
          if (status === 404 || status === 410) return { id: device.id, outcome: 'gone' as const };
          // The endpoint's host only: its path identifies the device.
          logger.warn(
            {
              userId,
              status,
              host: hostOf(device.endpoint),
              err: error instanceof Error ? error.message : String(error),
            },
            'push delivery failed; kept for the next event',
          );
          return { id: device.id, outcome: 'failed' as const };
        }
      }),
    );
    const ids = (outcome: string) => results.filter((r) => r.outcome === outcome).map((r) => r.id);
    await Promise.all([markSent(db, ids('sent')), dropSubscriptions(db, ids('gone'))]);
    const report = { sent: ids('sent').length, removed: ids('gone').length, failed: ids('failed').length };
    if (report.removed > 0)
      logger.info({ userId, removed: report.removed }, 'push subscriptions expired (404/410) and were removed');
    return report;
  }

  return {
    publicKey: keys.publicKey,
    send,
    async broadcast(message) {
      const total: SendReport = { sent: 0, removed: 0, failed: 0 };
      for (const userId of await subscribedUserIds(db)) {
        const r = await send(userId, message);
        total.sent += r.sent;
        total.removed += r.removed;
        total.failed += r.failed;
      }
      return total;
    },
  };
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'invalid';
  }
}
