// Sends a PushMessage to a user's devices through their push services (web-push builds the request: RFC 8291
// aes128gcm encryption, RFC 8292 VAPID), honouring the user's preferences. Each request goes out through egress.ts,
// which checks the endpoint again and sends to the address it checked. A device whose push service answers 404 or
// 410 (the subscription expired or the user revoked it) is forgotten, and so is one whose endpoint no longer passes
// the check (it now names a private address, or credentials): the next event does not try it again.
import type WebPush from 'web-push';
import { loadPackage } from '../lazy-package';
import type { PushMessage } from '../../contract/notifications';
import type { Db } from '../db/client';
import {
  dropSubscriptions,
  markSent,
  preferencesOf,
  subscribedUserIds,
  subscriptionsOf,
} from '../db/repositories/push';
import type { PushSubscriptionRow } from '../db/schema/push-subscriptions';
import { createEgress, type EgressOptions, type EndpointRefusal } from './egress';
import type { VapidKeys } from './vapid';

/** What happened to a send, for the server's logs and tests; never told to the user (a device's answer is not theirs to probe). */
export interface SendReport {
  /** Devices the push service accepted the message for. */
  sent: number;
  /** Devices forgotten: their push service said the subscription is gone, or the endpoint is no longer allowed. */
  removed: number;
  /** Devices that failed otherwise (push service down, timeout, a name that did not resolve); tried again next time. */
  failed: number;
  /** The user turned this kind off. */
  muted?: boolean;
}

export interface PushService {
  readonly publicKey: string;
  /** Why an endpoint may not be registered, in the user's words; null when it may. */
  refusalOf(endpoint: string): Promise<string | null>;
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
  /** Where pushes may go and how names resolve (tests: a local push service and its certificate). */
  egress?: EgressOptions;
  /** How long a push service may take to answer. */
  timeoutMs?: number;
}

/**
 * One answer for every address that may not be reached, and for a name that does not resolve: telling them apart
 * would tell a user which internal names exist.
 */
export const ENDPOINT_REFUSALS: Record<EndpointRefusal, string> = {
  'not-https': 'The push endpoint must be an https:// URL',
  credentials: 'The push endpoint must not contain a user name or password',
  address: 'The push endpoint must be a push service on the public internet',
  unresolved: 'The push endpoint must be a push service on the public internet',
};

/** Seconds a push service keeps an undelivered message (a phone offline for a while still hears of a halt). */
const TTL_SECONDS = 24 * 3600;

export function createPushService(options: PushServiceOptions): PushService {
  const { db, keys, logger } = options;
  const egress = createEgress(options.egress);
  const vapidDetails = { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function deliver(userId: string, device: PushSubscriptionRow, message: PushMessage, payload: string) {
    const checked = await egress.check(device.endpoint);
    if (!checked.ok) {
      // The endpoint's host only: its path identifies the device.
      logger.warn(
        { userId, host: hostOf(device.endpoint), refusal: checked.refusal },
        'push endpoint not allowed at send time; nothing sent',
      );
      return checked.refusal === 'unresolved' ? 'failed' : 'gone';
    }
    try {
      const details = loadPackage<typeof WebPush>('web-push').generateRequestDetails(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        payload,
        {
          vapidDetails,
          TTL: TTL_SECONDS,
          // Money events should wake a sleeping phone; a test or a completed trade can wait for the next wake-up.
          urgency: message.kind === 'tradeCompleted' || message.kind === 'test' ? 'normal' : 'high',
        },
      );
      const status = await egress.post(checked.target, details, timeoutMs);
      if (status >= 200 && status < 300) return 'sent';
      if (status === 404 || status === 410) return 'gone';
      logger.warn({ userId, status, host: hostOf(device.endpoint) }, 'push delivery failed; kept for the next event');
    } catch (error) {
      logger.warn(
        { userId, host: hostOf(device.endpoint), err: error instanceof Error ? error.message : String(error) },
        'push delivery failed; kept for the next event',
      );
    }
    return 'failed';
  }

  async function send(userId: string, message: PushMessage): Promise<SendReport> {
    if (message.kind !== 'test' && !(await preferencesOf(db, userId))[message.kind])
      return { sent: 0, removed: 0, failed: 0, muted: true };
    const devices = await subscriptionsOf(db, userId);
    const payload = JSON.stringify(message);
    const results = await Promise.all(
      devices.map(async (device) => ({ id: device.id, outcome: await deliver(userId, device, message, payload) })),
    );
    const ids = (outcome: string) => results.filter((r) => r.outcome === outcome).map((r) => r.id);
    await Promise.all([markSent(db, ids('sent')), dropSubscriptions(db, ids('gone'))]);
    const report = { sent: ids('sent').length, removed: ids('gone').length, failed: ids('failed').length };
    if (report.removed > 0) logger.info({ userId, removed: report.removed }, 'push subscriptions removed');
    return report;
  }

  return {
    publicKey: keys.publicKey,
    async refusalOf(endpoint) {
      const checked = await egress.check(endpoint);
      return checked.ok ? null : ENDPOINT_REFUSALS[checked.refusal];
    },
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
