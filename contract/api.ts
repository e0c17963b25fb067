// Request schemas of every REST call (spec section 7) and the shapes of the answers.
// The server validates with these schemas and documents them in OpenAPI; the client imports the types only.
import { z } from './zod';
import {
  MAX_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  ROLES,
  TRADE_STATUSES,
  TRADING_LIMITS,
  VENUES,
  type MarketKind,
} from './domain';
import { PAIR_CATALOGUE, isKnownSymbol, type SymbolId } from './pairs';
import type {
  ArbitrageOpportunity,
  Balances,
  MarketInfo,
  OpportunityOutcome,
  Pagination,
  Prices,
  PublicUser,
  RiskSummary,
  SpreadSeries,
  Stats,
  Trade,
} from './entities';
import { SPREAD_HISTORY_MAX_DAYS, SPREAD_MAX_RANGE_MS } from './spreads';
import { isoDateTimeText, text } from './text';
import type { TradingHaltState, TwoFactorStatus } from './guard';
import type { ExposureFunding } from './funding';
import { binanceKeyProblem } from './binance-keys';
import { derivAccountIdProblem, derivAppIdProblem, derivTokenProblem, type DerivLink } from './deriv';
import { EMAIL_PATTERN, LIMIT_MESSAGES, MESSAGES, PHONE_PATTERN } from './messages';
import { percentText } from './percent';
import type { VenueHealth } from './venue-health';
import { isTimeZone, TIME_ZONE_INVALID, TIME_ZONE_MAX_LENGTH } from './time-zone';

// Validation texts of spec section 5 and their patterns, in a zod-free module so the client's forms read them too.
export { EMAIL_PATTERN, MESSAGES, PHONE_PATTERN };

// Every text input of the API goes through `text` (contract/text.ts): a string without control characters.
export { controlCharactersMessage, hasControlCharacters, text } from './text';

const email = text('Email').trim().min(1, MESSAGES.emailRequired).max(254).regex(EMAIL_PATTERN, MESSAGES.emailInvalid);
const optionalName = (label: string) =>
  text(label)
    .max(100)
    .optional()
    .refine((v) => v === undefined || v.trim() === '' || v.trim().length >= 2, MESSAGES.nameShort(label));

/** An enum whose error names the field and its allowed values. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { message: `${label} must be one of ${values.join(', ')}` });

/**
 * A pair the product knows (contract/pairs.ts). Whether the server trades it is configuration, checked where it
 * matters (a trade, a user's pairs); a filter on a pair it does not trade finds nothing.
 */
export const symbolField = (label = 'symbol') => {
  const message = `${label} must be a pair such as BTC/USDT`;
  return text(label, { message }).pipe(
    z.templateLiteral([z.string(), '/USDT'], { message }).refine((v): v is SymbolId => isKnownSymbol(v), message),
  );
};

export const IdParams = z.object({ id: text('The id in the URL').uuid('Not a valid id') });

// ---- auth ----
export const LoginBody = z.object({
  /** Carries the e-mail (spec); a username is accepted too. */
  username: text('Email').trim().min(1, MESSAGES.emailRequired).max(254),
  password: text('Password').min(1, MESSAGES.passwordRequired).max(1024),
});
export const RegisterBody = z.object({
  username: text('Username').trim().min(3, MESSAGES.usernameShort).max(50),
  email,
  password: text('Password').min(8, MESSAGES.newPasswordShort).max(1024),
  firstName: optionalName('First name'),
  lastName: optionalName('Last name'),
});
export const ChangePasswordBody = z
  .object({
    currentPassword: text('Current password').min(1, MESSAGES.currentPasswordRequired).max(1024),
    newPassword: text('New password').min(1, MESSAGES.newPasswordRequired).min(8, MESSAGES.newPasswordShort).max(1024),
  })
  .refine((b) => b.currentPassword !== b.newPassword, { message: MESSAGES.newPasswordSame, path: ['newPassword'] });
export const ProfileBody = z.object({
  username: text('Username').trim().min(1, MESSAGES.usernameRequired).min(3, MESSAGES.usernameShort).max(50),
  email,
  firstName: optionalName('First name'),
  lastName: optionalName('Last name'),
  phone: text('Phone')
    .max(32)
    .optional()
    .refine((v) => v === undefined || v.trim() === '' || PHONE_PATTERN.test(v.trim()), MESSAGES.phoneInvalid),
  bio: text('Bio', { multiline: true }).max(500, MESSAGES.bioLong).optional(),
});

/** The zone dates are shown in (contract/time-zone.ts); null goes back to the browser's own. */
export const TimeZoneBody = z.object({
  timeZone: text('Time zone')
    .max(TIME_ZONE_MAX_LENGTH, TIME_ZONE_INVALID)
    .refine(isTimeZone, TIME_ZONE_INVALID)
    .nullable(),
});

// ---- users (own settings) ----
export const TradingSettingsBody = z
  .object({
    maxExposure: z
      .number()
      .finite()
      .min(TRADING_LIMITS.maxExposure.min, LIMIT_MESSAGES.belowMin('Max exposure', TRADING_LIMITS.maxExposure.min))
      .max(TRADING_LIMITS.maxExposure.max),
    /** Fraction: 0 to 0.1 (the form shows 0 to 10 %). */
    minSpread: z
      .number()
      .finite()
      .min(TRADING_LIMITS.minSpread.min, LIMIT_MESSAGES.belowMin('Min spread', TRADING_LIMITS.minSpread.min))
      .max(
        TRADING_LIMITS.minSpread.max,
        LIMIT_MESSAGES.aboveMax('Min spread', percentText(TRADING_LIMITS.minSpread.max)),
      ),
    maxLoss: z
      .number()
      .finite()
      .min(TRADING_LIMITS.maxLoss.min, LIMIT_MESSAGES.belowMin('Max loss', TRADING_LIMITS.maxLoss.min))
      .max(TRADING_LIMITS.maxLoss.max),
    tradingEnabled: z.boolean(),
    /** The pairs to trade: at least one, each a pair the server trades (the server checks that), none twice. */
    symbols: z
      .array(symbolField('Each pair'), { message: 'symbols must be a list of pairs' })
      .min(1, 'Pick at least one pair to trade')
      .max(PAIR_CATALOGUE.length)
      .refine((list) => new Set(list).size === list.length, 'A pair is named twice'),
  })
  .partial()
  .refine(
    (b) => Object.keys(b).length > 0,
    'Send at least one of maxExposure, minSpread, maxLoss, tradingEnabled, symbols',
  );

const secret = (label: string) =>
  text(label)
    .max(512, `${label} is too long`)
    .regex(/^[\x21-\x7e]*$/, `${label} must not contain spaces or special characters`);
/** A field checked by one of contract/deriv.ts's rules, so the form and the server say the same thing. */
const derivField = (label: string, problem: (value: string) => string | null) =>
  text(label)
    .trim()
    .superRefine((value, ctx) => {
      const message = problem(value);
      if (message) ctx.addIssue({ code: 'custom', message });
    });
const derivToken = (label: string) => derivField(label, derivTokenProblem);
/** A Binance key or secret in a key's shape (contract/binance-keys.ts), the form's words. */
const binanceKey = (label: string, which: 'API key' | 'secret key') =>
  secret(label).superRefine((value, ctx) => {
    const message = binanceKeyProblem(value, which);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
const derivAppId = (label: string) => derivField(label, derivAppIdProblem);
/** Omitted = unchanged; '' = remove the saved value. */
export const ApiKeysBody = z
  .object({
    binanceApiKey: binanceKey('Binance API key', 'API key').optional(),
    binanceSecretKey: binanceKey('Binance secret key', 'secret key').optional(),
    /** A personal access token (new API, with its app ID) or a legacy API token: one field for either. */
    derivToken: derivToken('Deriv token').optional(),
    derivAppId: derivAppId('Deriv app ID').optional(),
    /** The Options account to trade when the token reaches several (new API); '' = none chosen. */
    derivAccountId: derivField('Deriv account', derivAccountIdProblem).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Send at least one key to save');

// ---- trades ----
const intFromQuery = (min: number, max: number, dflt: number, label: string) =>
  z.coerce
    .number({ message: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`)
    .default(dflt);
export const TradesQuery = z.object({
  status: oneOf(TRADE_STATUSES, 'status').optional(),
  symbol: symbolField().optional(),
  page: intFromQuery(1, 1_000_000, 1, 'page'),
  limit: intFromQuery(1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, 'limit'),
});
/** The most trade changes one answer of GET /trades/changes carries. */
export const MAX_TRADE_CHANGES = 500;
/**
 * Where a copy of the trade history stands in the change feed: the last change taken (its `updatedAt` to the
 * microsecond, UTC) and that trade's id, as `2026-01-31T12:00:00.123456Z_<uuid>`. Opaque to the client: it sends back
 * what the last answer gave.
 */
const CHANGE_CURSOR =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{6}Z_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A real instant: the date part reads back unchanged (no 31 February, no hour 25), years 1970–9999. */
const isRealInstant = (cursor: string) => {
  const whole = CHANGE_CURSOR.exec(cursor)?.[1];
  const ms = whole === undefined ? Number.NaN : Date.parse(`${whole}Z`);
  return Number.isFinite(ms) && ms >= 0 && new Date(ms).toISOString().slice(0, 19) === whole;
};
/**
 * The history sync's change feed: the caller's trades changed (created or updated) after `after`, oldest change
 * first, at most `limit`; without `after` from the beginning. `limit=0` asks only for the cursor of the newest change,
 * for a copy filled by pages that follows changes from then on.
 */
export const TradeChangesQuery = z.object({
  after: text('after')
    .regex(CHANGE_CURSOR, { message: 'after must be a cursor from an earlier answer', abort: true })
    .refine(isRealInstant, 'after must be a cursor from an earlier answer')
    .optional(),
  limit: intFromQuery(0, MAX_TRADE_CHANGES, MAX_TRADE_CHANGES, 'limit'),
});
const isoInstant = (label: string) =>
  isoDateTimeText(label, `${label} must be a date and time such as 2026-01-31T00:00:00Z`).optional();
/**
 * The CSV export: the trade list's filters and a date range on the opening time, `from` inclusive, `to` exclusive.
 * A range that ends before it starts is refused; a valid range without trades gives a file with the header only.
 */
export const TradesExportQuery = z
  .object({
    status: oneOf(TRADE_STATUSES, 'status').optional(),
    symbol: symbolField().optional(),
    from: isoInstant('from'),
    to: isoInstant('to'),
  })
  .refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) < Date.parse(q.to), {
    message: 'The date range is empty: "from" must be before "to"',
    path: ['to'],
  });
export const CreateTradeBody = z.object({
  symbol: symbolField(),
  /** Notional in USDT. */
  totalAmount: z.number().finite().positive('Amount must be more than 0').max(10_000_000),
});
export const TradeStatusBody = z.object({
  status: oneOf(TRADE_STATUSES, 'status'),
  actualProfit: z.number().finite().optional().default(0),
});

// ---- exchanges ----
export const PricesQuery = z.object({ symbol: symbolField().optional() });
export const TestConnectionBody = z.object({
  exchange: oneOf(VENUES, 'exchange'),
  /** When omitted, the caller's saved credentials are tested. */
  apiKey: binanceKey('API key', 'API key').optional(),
  secretKey: binanceKey('Secret key', 'secret key').optional(),
  token: derivToken('Token').optional(),
  appId: derivAppId('App ID').optional(),
});

const isoDateTime = (label: string) =>
  isoDateTimeText(label, `${label} must be an ISO 8601 date-time, e.g. 2026-01-01T00:00:00Z`);
export const SpreadsQuery = z
  .object({
    symbol: symbolField(),
    from: isoDateTime('from'),
    to: isoDateTime('to'),
  })
  .refine((q) => Date.parse(q.from) < Date.parse(q.to), { message: 'from must be before to', path: ['from'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= SPREAD_MAX_RANGE_MS, {
    message: `The range from from to to must be at most ${SPREAD_HISTORY_MAX_DAYS + 1} days`,
    path: ['to'],
  });

// ---- admin ----
export const AdminUsersQuery = z.object({
  search: text('search').max(100).optional(),
  role: z.union([oneOf(ROLES, 'role'), z.literal('')], { message: 'role must be admin, user or empty' }).optional(),
});
/** Deleting or deactivating a user with open trades: `closeTrades=true` asks the engine to close them first. */
export const AdminUserCommandQuery = z.object({
  closeTrades: z.enum(['true', 'false'], { message: 'closeTrades must be true or false' }).optional(),
});
export const CreateUserBody = z.object({
  username: text('Username').trim().min(1, MESSAGES.usernameRequired).min(3, MESSAGES.usernameShort).max(50),
  email,
  password: text('Password').min(6, MESSAGES.createPasswordShort).max(1024),
  role: oneOf(ROLES, 'role').default('user'),
});

export type LoginBody = z.infer<typeof LoginBody>;
export type RegisterBody = z.infer<typeof RegisterBody>;
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
export type ProfileBody = z.infer<typeof ProfileBody>;
export type TimeZoneBody = z.infer<typeof TimeZoneBody>;
export type TradingSettingsBody = z.infer<typeof TradingSettingsBody>;
export type ApiKeysBody = z.infer<typeof ApiKeysBody>;
export type TradesQuery = z.input<typeof TradesQuery>;
export type TradeChangesQuery = z.input<typeof TradeChangesQuery>;
export type TradesExportQuery = z.infer<typeof TradesExportQuery>;
export type CreateTradeBody = z.infer<typeof CreateTradeBody>;
export type TradeStatusBody = z.input<typeof TradeStatusBody>;
export type TestConnectionBody = z.infer<typeof TestConnectionBody>;
export type SpreadsQuery = z.infer<typeof SpreadsQuery>;
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;
export type AdminUserCommandQuery = z.infer<typeof AdminUserCommandQuery>;
export type CreateUserBody = z.input<typeof CreateUserBody>;

// ---- answers: every JSON answer carries `success`; payload fields sit beside it ----
export interface ErrorItem {
  msg: string;
  path?: string;
}
export interface ErrorResponse {
  success: false;
  message: string;
  errors?: ErrorItem[];
}
export interface MessageResponse {
  success: true;
  message: string;
}
/** GET /auth/registration: whether POST /auth/register accepts new accounts on this server. */
export interface RegistrationStatusResponse {
  success: true;
  open: boolean;
}
export interface LoginResponse {
  success: true;
  user: PublicUser;
  token: string;
  message?: string;
}
export interface UserResponse {
  success: true;
  user: PublicUser;
  message?: string;
  /** Saving trading settings: present when the balances fund less than maxExposure (contract/funding.ts). */
  funding?: ExposureFunding;
}
/** A user as the admin list shows them: whether two-factor sign-in is on decides if Reset 2FA is offered. */
export type AdminListedUser = PublicUser & { twoFactorEnabled: boolean };
export interface UsersResponse {
  success: true;
  users: AdminListedUser[];
}
export interface TradesResponse {
  success: true;
  trades: Trade[];
  pagination: Pagination;
}
/** GET /trades/changes: changed trades, oldest change first, and where to ask from next time. */
export interface TradeChangesResponse {
  success: true;
  trades: Trade[];
  /** Send as `after` next time. It may stay a little behind the newest change (see server/db/repositories/trade-changes.ts). */
  cursor: string | null;
  /** True when more changes wait beyond this answer's `limit`: ask again at once with the new cursor. */
  more: boolean;
  /** All the caller's trades on the server now. */
  total: number;
}
export interface TradeResponse {
  success: true;
  trade: Trade;
  message?: string;
}
export interface StatsResponse {
  success: true;
  stats: Stats;
}
export interface RiskResponse {
  success: true;
  risk: RiskSummary;
}
export interface BalancesResponse {
  success: true;
  balance: Balances;
}
export interface PricesResponse {
  success: true;
  prices: Prices;
  opportunities?: ArbitrageOpportunity[];
}
export interface SpreadsResponse {
  success: true;
  series: SpreadSeries;
}
/** One pair the product knows, as an admin sees it: whether each venue offers it and whether this server trades it. */
export interface AdminPair {
  symbol: SymbolId;
  name: string;
  binance: boolean;
  deriv: boolean;
  enabled: boolean;
}
/**
 * GET /admin/pairs: every pair the product knows with what the market offers of it (null when the venues could not
 * be asked just now, with the reason in `message`) and the ones SYMBOLS enables.
 */
export interface AdminPairsResponse {
  success: true;
  market: MarketKind;
  pairs: AdminPair[];
  message?: string;
}
/** `halt`: the admin's global kill switch, so the client can show its banner from the first screen. */
export interface MetaResponse {
  success: true;
  market: MarketInfo;
  halt: TradingHaltState;
}
/** Trades in GET /snapshot's first page: the Dashboard's recent list and the Trades screen's default page. */
export const SNAPSHOT_RECENT_LIMIT = DEFAULT_PAGE_SIZE;
/**
 * GET /snapshot: what the signed-in layout and the Dashboard paint first, in one answer; each figure as its own endpoint
 * answers it (profile, meta, prices, balances, stats, the first page of 20 trades, risk, two-factor status). `prices` is null
 * on an instance that runs no engine.
 */
export interface SnapshotResponse {
  success: true;
  user: PublicUser;
  market: MarketInfo;
  halt: TradingHaltState;
  prices: Prices | null;
  /** Each venue's connection as the engine's instance sees it (contract/venue-health.ts); null with no engine here. */
  venues: VenueHealth[] | null;
  balance: Balances;
  stats: Stats;
  /** GET /trades?page=1&limit=20 as it answers: the Dashboard's recent trades and the Trades screen's first page. */
  recent: { trades: Trade[]; pagination: Pagination };
  risk: RiskSummary;
  twoFactor: TwoFactorStatus;
  /**
   * The user's newest opportunity outcomes (taken, or skipped and why), newest first, as the engine sent them over
   * the socket; empty on an instance that runs no engine or before any opportunity since the engine started.
   */
  outcomes: OpportunityOutcome[];
}
export interface TestConnectionResponse {
  success: true;
  exchange: (typeof VENUES)[number];
  message: string;
  /** Deriv, saved credentials: what Deriv said about them (also saved on the user); absent otherwise. */
  deriv?: DerivLink;
}
export interface TradingMembershipResponse {
  success: true;
  tradingEnabled: boolean;
  message: string;
}
