// Web push: what a notification says and where a click leads, the user's choices, and the subscription calls.
// The server builds a PushMessage, encrypts it for each of the user's devices (RFC 8291), and the service worker shows
// it. No runtime dependencies besides zod.
import { z } from './zod';
import { text } from './text';

/** What a user can be told about; 'test' is the Settings button's and is always sent. */
export const NOTIFICATION_KINDS = ['tradeCompleted', 'tradeFailed', 'tradingPaused', 'maxLoss', 'killSwitch'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_LABELS: Record<NotificationKind, { label: string; hint: string }> = {
  tradeCompleted: { label: 'Trade completed', hint: 'Both legs closed, with the profit or loss.' },
  tradeFailed: { label: 'Trade failed', hint: 'A leg could not be placed; the other leg was unwound.' },
  tradingPaused: { label: 'Trading paused', hint: 'Automated trading paused after repeated failures, with why.' },
  maxLoss: { label: 'Max loss reached', hint: 'Trading halted because your realised drawdown reached Max Loss.' },
  killSwitch: { label: 'Kill switch used', hint: 'You or an admin stopped trading and closed open trades.' },
};

export type NotificationPreferences = Record<NotificationKind, boolean>;
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  tradeCompleted: true,
  tradeFailed: true,
  tradingPaused: true,
  maxLoss: true,
  killSwitch: true,
};

/** Devices a user may have notifications on at once; a newer one replaces the oldest. */
export const MAX_PUSH_DEVICES = 10;

/** The decrypted push payload, as the service worker reads it. `url` is a same-origin path to open on a click. */
export interface PushMessage {
  kind: NotificationKind | 'test';
  title: string;
  body: string;
  url: string;
  /** Replaces an earlier notification with the same tag (one per trade, one for the trading state). */
  tag: string;
  /** ISO time of the event. */
  at: string;
}

const base64url = (label: string, min: number, max: number) =>
  text(label)
    .min(min, `${label} is too short`)
    .max(max, `${label} is too long`)
    .regex(/^[A-Za-z0-9_-]+=*$/, `${label} must be base64url`);

/** PushSubscription.toJSON() of the browser. Only https push services are accepted. */
export const PushSubscriptionBody = z.object({
  endpoint: text('The push endpoint')
    .max(2048, 'The push endpoint is too long')
    .url('The push endpoint must be a URL')
    .refine((v) => v.startsWith('https://'), 'The push endpoint must be an https:// URL'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // An uncompressed P-256 point (65 bytes) and a 16-byte secret.
    p256dh: base64url('keys.p256dh', 80, 100),
    auth: base64url('keys.auth', 16, 30),
  }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

export const PushUnsubscribeBody = z.object({
  endpoint: text('The push endpoint').min(1, 'endpoint is required').max(2048, 'The push endpoint is too long'),
});

export const NotificationPreferencesBody = z
  .object(
    Object.fromEntries(
      NOTIFICATION_KINDS.map((k) => [k, z.boolean({ message: `${k} must be true or false` })]),
    ) as Record<NotificationKind, z.ZodBoolean>,
  )
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'Send at least one preference');

export interface VapidKeyResponse {
  success: true;
  publicKey: string;
}
export interface NotificationPreferencesResponse {
  success: true;
  preferences: NotificationPreferences;
  devices: number;
  message?: string;
}
/** The test was handed to the push services of the user's devices; what each answered is not said (see README). */
export interface TestNotificationResponse {
  success: true;
  devices: number;
  message: string;
}
