// The wire of the guard features: the audit log, the kill switches and two-factor sign-in. Imports nothing local
// outside contract/.
import { z } from './zod';
import { isoDateTimeText, text } from './text';
import { MAX_PAGE_SIZE } from './domain';
import type { Pagination } from './entities';

// ---- audit log ----

/** Every action the audit log records; the admin screen filters by these. */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_in_failed',
  'sign_in_2fa_failed',
  'sign_out',
  'password_changed',
  'profile_updated',
  'profile_change_refused',
  'api_keys_saved',
  'trading_settings_saved',
  'trading_started',
  'trading_stopped',
  'manual_trade',
  'trade_cancelled',
  'stop_and_flatten',
  'global_halt',
  'global_resume',
  'user_created',
  'user_deleted',
  'user_activated',
  'user_deactivated',
  'two_factor_enabled',
  'two_factor_disabled',
  'two_factor_reset',
  'two_factor_recovery_used',
  'backup_downloaded',
  'telegram_linked',
  'telegram_unlinked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** How an action is named on screen. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  sign_in_2fa_failed: 'Wrong two-factor code',
  sign_out: 'Signed out',
  password_changed: 'Password changed',
  profile_updated: 'Profile updated',
  profile_change_refused: 'Username or e-mail change refused',
  api_keys_saved: 'API keys saved',
  trading_settings_saved: 'Trading settings saved',
  trading_started: 'Automated trading started',
  trading_stopped: 'Automated trading stopped',
  manual_trade: 'Manual trade',
  trade_cancelled: 'Trade cancelled',
  stop_and_flatten: 'Stop & flatten',
  global_halt: 'Global halt',
  global_resume: 'Trading resumed (global)',
  user_created: 'User created',
  user_deleted: 'User deleted',
  user_activated: 'User activated',
  user_deactivated: 'User deactivated',
  two_factor_enabled: 'Two-factor enabled',
  two_factor_disabled: 'Two-factor disabled',
  two_factor_reset: 'Two-factor reset by an admin',
  two_factor_recovery_used: 'Recovery code used',
  backup_downloaded: 'Database backup downloaded',
  telegram_linked: 'Telegram chat linked',
  telegram_unlinked: 'Telegram chat unlinked',
};

/** Days of audit rows kept when AUDIT_RETENTION_DAYS is not set. */
export const AUDIT_RETENTION_DEFAULT_DAYS = 365;

export interface AuditEvent {
  id: number;
  at: string;
  action: AuditAction;
  actorId: string | null;
  actorName: string;
  subjectId: string | null;
  subjectName: string;
  ip: string;
  userAgent: string;
  details: Record<string, unknown>;
}

/** Text typed into a filter: control characters refused (PostgreSQL text cannot even hold NUL). */
const filterText = (label: string) => text(label).max(100, `${label} must be at most 100 characters`);
const pageParam = (max: number, dflt: number, label: string) =>
  z.coerce
    .number({ message: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(max, `${label} must be at most ${max}`)
    .default(dflt);
const dateParam = (label: string) =>
  isoDateTimeText(label, `${label} must be an ISO 8601 date-time, e.g. 2026-01-01T00:00:00Z`).optional();

export const AuditQuery = z
  .object({
    /** Part of a username or e-mail of the actor or the account concerned. */
    user: filterText('user').optional(),
    action: z.enum(['', ...AUDIT_ACTIONS], { message: 'action is not a known audit action' }).optional(),
    from: dateParam('from'),
    to: dateParam('to'),
    page: pageParam(1_000_000, 1, 'page'),
    limit: pageParam(MAX_PAGE_SIZE, 20, 'limit'),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  });
export const OwnActivityQuery = z.object({
  page: pageParam(1_000_000, 1, 'page'),
  limit: pageParam(MAX_PAGE_SIZE, 10, 'limit'),
});
/** What the client sends (the schema coerces page and limit from the query string). */
export interface AuditQuery {
  user?: string | undefined;
  action?: AuditAction | '' | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page?: number;
  limit?: number;
}
export interface AuditResponse {
  success: true;
  events: AuditEvent[];
  pagination: Pagination;
}

// ---- kill switches ----

/** The admin's global halt as every signed-in user sees it (GET /api/meta and the `trading_halt` socket event). */
export interface TradingHaltState {
  halted: boolean;
  reason: string;
  /** Who changed it last (name), and when (ISO). */
  changedBy: string;
  changedAt: string | null;
}
export const HALT_REASON_MAX = 200;
export const HaltBody = z.object({
  reason: text('Reason').max(HALT_REASON_MAX, `Reason must be at most ${HALT_REASON_MAX} characters`).optional(),
});
export type HaltBody = z.infer<typeof HaltBody>;
export interface HaltResponse {
  success: true;
  halt: TradingHaltState;
  message: string;
}

/** One trade's fate in a user's Stop & flatten. */
export interface FlattenResult {
  _id: string;
  tradeId: string;
  symbol: string;
  /** The trade's status once the wait ended: 'pending' means it is still closing. */
  status: string;
  actualProfit: number;
  reason: string | null;
}
export interface FlattenResponse {
  success: true;
  message: string;
  closed: number;
  stillClosing: number;
  trades: FlattenResult[];
}

export const HALTED_MESSAGE = 'Trading is halted by an admin: no new trades are opened until an admin resumes it.';

// ---- two-factor sign-in ----

export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
/** A TOTP code (6 digits) or a recovery code (xxxxx-xxxxx). Spaces are ignored. */
export const TwoFactorCode = text('Code')
  .max(40, 'Enter the 6-digit code from your authenticator app or a recovery code')
  .transform((v) => v.replace(/\s+/g, '').toLowerCase())
  .refine(
    (v) => /^\d{6}$/.test(v) || /^[a-z0-9]{5}-?[a-z0-9]{5}$/.test(v),
    'Enter the 6-digit code from your authenticator app or a recovery code',
  );
/** Only a TOTP code (confirming an enrolment must prove the app works). */
export const TotpCode = text('Code')
  .max(20, 'Enter the 6-digit code from your authenticator app')
  .transform((v) => v.replace(/\s+/g, ''))
  .refine((v) => /^\d{6}$/.test(v), 'Enter the 6-digit code from your authenticator app');
export const TwoFactorLoginBody = z.object({
  challenge: text('The sign-in step').min(1, 'The sign-in step expired. Sign in again.').max(2000),
  code: TwoFactorCode,
});
export const TwoFactorConfirmBody = z.object({ code: TotpCode });
export const TwoFactorDisableBody = z.object({ code: TwoFactorCode });
export type TwoFactorLoginBody = z.input<typeof TwoFactorLoginBody>;

/** The password was right and the account has 2FA: sign-in continues with POST /auth/login/2fa. */
export interface TwoFactorChallengeResponse {
  success: true;
  twoFactorRequired: true;
  challenge: string;
  message: string;
}
export interface TwoFactorSetupResponse {
  success: true;
  secret: string;
  otpauthUrl: string;
  qrDataUrl: string;
}
export interface TwoFactorEnabledResponse {
  success: true;
  recoveryCodes: string[];
  message: string;
}
export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
  required: boolean;
}
export interface TwoFactorStatusResponse {
  success: true;
  twoFactor: TwoFactorStatus;
}

export const TWO_FACTOR_MESSAGES = {
  wrongCode: 'That code is not right. Check the time on your phone and try the current code.',
  challengeExpired: 'The sign-in step expired. Sign in again with your password.',
  notEnrolled: 'Two-factor sign-in is not set up for this account.',
  alreadyEnabled: 'Two-factor sign-in is already on. Turn it off first to set it up again.',
  noPending: 'Start the set-up first: ask for a QR code.',
  adminMustEnrol:
    'This server requires admins to use two-factor sign-in. Set it up in Profile before using admin tools.',
} as const;
