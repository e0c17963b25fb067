// All configuration comes from environment variables, validated once at start. `loadConfig` is pure so tests can
// feed it any environment; the process (process/run.ts) prints the messages and exits with code 1 when it throws
// ConfigError.
import { z } from 'zod';
import { EMAIL_PATTERN } from '../contract/api';
import { DEFAULT_SIM_PROFILE, SIM_PROFILES, type SimProfile } from '../contract/domain';
import { DEFAULT_SYMBOLS, parseSymbolList, type SymbolId } from '../contract/pairs';
import { AUDIT_RETENTION_DEFAULT_DAYS } from '../contract/guard';
import { SPREAD_HISTORY_DEFAULT_DAYS, SPREAD_HISTORY_MAX_DAYS } from '../contract/spreads';
import { DEFAULT_TRADING_PARAMS } from './engine/costs';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  host: string;
  port: number;
  /** Where PGlite, generated secrets and other local state live. */
  dataDir: string;
  /** postgres:// URL: use PostgreSQL instead of the embedded PGlite. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  market: 'sim' | 'live';
  simSeed: number | undefined;
  /** The simulated market's profile: `calibrated` (like the real pair) or `demo` (exaggerated opportunities). */
  simProfile: SimProfile;
  /**
   * The pairs this server trades (SYMBOLS, in the catalogue's order); checked at start against what the market
   * offers (server/venues/pair-check.ts).
   */
  symbols: SymbolId[];
  /** Days of recorded spread history kept; older samples are deleted. */
  spreadHistoryDays: number;
  /** Price updates per second per symbol sent to clients. */
  priceHz: number;
  adminEmail: string;
  adminPassword: string | undefined;
  allowRegistration: boolean;
  /** 32-byte credential-encryption key; when absent one is generated into dataDir. */
  encryptionKey: Buffer | undefined;
  /** 32-byte token-signing key shared by every instance of a scale-out; when absent one is generated into dataDir. */
  tokenKey: Buffer | undefined;
  /** Token lifetime in seconds. */
  tokenTtlSeconds: number;
  logLevel: LogLevel;
  /** false makes an API-only instance that never runs the trading engine. */
  engine: boolean;
  /** Users split into this many shards, each traded by one engine instance (PostgreSQL only; 1: one leader). */
  engineShards: number;
  binanceRestUrl: string;
  binanceWsUrl: string;
  /** Deriv's legacy WebSocket API, for tokens that belong to it. */
  derivWsUrl: string;
  /** Deriv's new API: its public socket (quotes, offers) and its REST base (accounts, one-time passwords). */
  derivPublicWsUrl: string;
  derivApiUrl: string;
  /** Deriv app id for legacy tokens saved without one. */
  derivAppId: string;
  tradeMaxHoldMs: number;
  /** A quote older than this is not traded, and its price is sent as stale. */
  quoteMaxAgeMs: number;
  /** A decision pairs the two venues' quotes only when they are this close in time. */
  quoteMaxSkewMs: number;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /** A request (headers and body) must have arrived within this many milliseconds, or it is answered 408. */
  requestTimeoutMs: number;
  /** Its headers within this many milliseconds. */
  headersTimeoutMs: number;
  /** Web push VAPID key pair (base64url); generated into dataDir when both are absent. */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  /** Who push services contact about this sender: a mailto: or https: URL (RFC 8292). */
  vapidSubject: string;
  /** Days of audit events kept; older ones are pruned daily. */
  auditRetentionDays: number;
  /** Admins must enrol in two-factor sign-in before admin routes answer them. */
  adminRequire2fa: boolean;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (sign-in throttling, logs): false (none, the
   * default: the address is the connection's), true (any), a number of hops, or a list of addresses/CIDR ranges.
   */
  trustProxy: boolean | number | string[];
  /** Bearer token Prometheus sends for GET /metrics; the endpoint is not served when unset. */
  metricsToken: string | undefined;
  /** The Telegram bot's token from @BotFather; no bot without it. Never logged. */
  telegramBotToken: string | undefined;
  /** The Bot API's base (tests: a fake on loopback). */
  telegramApiUrl: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** '12h', '30m', '45s', '7d' or a bare number of seconds. */
export function parseDurationSeconds(text: string): number | null {
  const match = /^(\d+)\s*([smhd]?)$/i.exec(text.trim());
  if (!match) return null;
  const seconds = Number(match[1]) * (DURATION_UNITS[(match[2] || 's').toLowerCase()] ?? 1);
  return seconds > 0 ? seconds : null;
}

/** 64 hex characters or base64 of exactly 32 bytes. */
export function parseEncryptionKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed, 'base64');
    if (bytes.length === 32) return bytes;
  }
  return null;
}

const int = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const bool = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), `${name} must be true or false`)
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (name: string, protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `${name} must be a ${protocols.map((p) => p.replace(':', '://')).join(' or ')} URL`,
    );

/** 'false' | 'true' | a hop count | comma-separated IP addresses or CIDR ranges (Fastify's trustProxy forms). */
export function parseTrustProxy(text: string): boolean | number | string[] | null {
  const value = text.trim().toLowerCase();
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  if (['true', 'yes', 'on'].includes(value)) return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const address = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]+)(\/\d{1,3})?$/;
  return entries.length > 0 && entries.every((e) => address.test(e) && e.includes(e.includes(':') ? ':' : '.'))
    ? entries
    : null;
}

const EnvSchema = z.object({
  HOST: z.string().trim().min(1, 'HOST must not be empty').default('127.0.0.1'),
  PORT: int('PORT', 0, 65535).default(8080),
  DATA_DIR: z.string().trim().min(1, 'DATA_DIR must not be empty').default('./data'),
  DATABASE_URL: url('DATABASE_URL', ['postgres:', 'postgresql:']).optional(),
  REDIS_URL: url('REDIS_URL', ['redis:', 'rediss:']).optional(),
  MARKET: z.enum(['sim', 'live'], { message: "MARKET must be 'sim' or 'live'" }).default('sim'),
  SIM_SEED: int('SIM_SEED', 0, 2 ** 31 - 1).optional(),
  SIM_PROFILE: z
    .enum(SIM_PROFILES, { message: `SIM_PROFILE must be one of ${SIM_PROFILES.map((p) => `'${p}'`).join(', ')}` })
    .default(DEFAULT_SIM_PROFILE),
  SYMBOLS: z
    .string()
    .default(DEFAULT_SYMBOLS.join(','))
    .transform((text, ctx) => {
      const read = parseSymbolList(text);
      if ('symbols' in read) return read.symbols;
      ctx.addIssue({ code: 'custom', message: `SYMBOLS: ${read.error}` });
      return z.NEVER;
    }),
  SPREAD_HISTORY_DAYS: int('SPREAD_HISTORY_DAYS', 1, SPREAD_HISTORY_MAX_DAYS).default(SPREAD_HISTORY_DEFAULT_DAYS),
  PRICE_HZ: int('PRICE_HZ', 1, 60).default(4),
  ADMIN_EMAIL: z
    .string()
    .trim()
    .regex(
      EMAIL_PATTERN,
      'ADMIN_EMAIL must be an e-mail address the sign-in form accepts (name@domain.tld), e.g. admin@example.com',
    )
    .default('admin@arbitrage.local'),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').max(1024).optional(),
  ALLOW_REGISTRATION: bool('ALLOW_REGISTRATION').default(false),
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => parseEncryptionKey(v) !== null, 'ENCRYPTION_KEY must be 64 hex characters or the base64 of 32 bytes')
    .optional(),
  TOKEN_KEY: z
    .string()
    .refine((v) => parseEncryptionKey(v) !== null, 'TOKEN_KEY must be 64 hex characters or the base64 of 32 bytes')
    .optional(),
  TOKEN_TTL: z
    .string()
    .refine((v) => parseDurationSeconds(v) !== null, "TOKEN_TTL must be a duration such as '12h', '30m' or '3600'")
    .default('12h'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ENGINE: z.enum(['on', 'off'], { message: "ENGINE must be 'on' or 'off'" }).default('on'),
  ENGINE_SHARDS: int('ENGINE_SHARDS', 1, 1024).default(1),
  BINANCE_REST_URL: url('BINANCE_REST_URL', ['http:', 'https:']).default('https://api.binance.com'),
  BINANCE_WS_URL: url('BINANCE_WS_URL', ['ws:', 'wss:']).default('wss://stream.binance.com:9443'),
  DERIV_WS_URL: url('DERIV_WS_URL', ['ws:', 'wss:']).default('wss://ws.derivws.com/websockets/v3'),
  DERIV_PUBLIC_WS_URL: url('DERIV_PUBLIC_WS_URL', ['ws:', 'wss:']).default(
    'wss://api.derivws.com/trading/v1/options/ws/public',
  ),
  DERIV_API_URL: url('DERIV_API_URL', ['http:', 'https:']).default('https://api.derivws.com'),
  // Deriv's public test app id by default; for legacy API tokens only (the new API takes each user's own app id).
  DERIV_APP_ID: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, 'DERIV_APP_ID must be the number Deriv gave your legacy app')
    .default('1089'),
  TRADE_MAX_HOLD_MS: int('TRADE_MAX_HOLD_MS', 1000, 7 * 24 * 3600 * 1000).default(DEFAULT_TRADING_PARAMS.maxHoldMs),
  QUOTE_MAX_AGE_MS: int('QUOTE_MAX_AGE_MS', 100, 600_000).default(DEFAULT_TRADING_PARAMS.quoteMaxAgeMs),
  QUOTE_MAX_SKEW_MS: int('QUOTE_MAX_SKEW_MS', 0, 60_000).default(DEFAULT_TRADING_PARAMS.quoteMaxSkewMs),
  BODY_LIMIT: int('BODY_LIMIT', 1024, 50 * 1024 * 1024).default(65_536),
  REQUEST_TIMEOUT_MS: int('REQUEST_TIMEOUT_MS', 1000, 600_000).default(30_000),
  HEADERS_TIMEOUT_MS: int('HEADERS_TIMEOUT_MS', 1000, 600_000).default(10_000),
  // Uncompressed P-256 public key (65 bytes) and private scalar (32 bytes), base64url as `web-push generate-vapid-keys` prints them.
  VAPID_PUBLIC_KEY: z
    .string()
    .trim()
    .regex(
      /^[A-Za-z0-9_-]{86,88}$/,
      'VAPID_PUBLIC_KEY must be the base64url public key that web-push generate-vapid-keys prints',
    )
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .regex(
      /^[A-Za-z0-9_-]{42,44}$/,
      'VAPID_PRIVATE_KEY must be the base64url private key that web-push generate-vapid-keys prints',
    )
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .trim()
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'VAPID_SUBJECT must be a mailto: address or an https:// URL')
    .optional(),
  AUDIT_RETENTION_DAYS: int('AUDIT_RETENTION_DAYS', 1, 36_500).default(AUDIT_RETENTION_DEFAULT_DAYS),
  ADMIN_REQUIRE_2FA: bool('ADMIN_REQUIRE_2FA').default(false),
  TRUST_PROXY: z
    .string()
    .refine(
      (v) => parseTrustProxy(v) !== null,
      'TRUST_PROXY must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses (CIDR allowed)',
    )
    .default('false'),
  METRICS_TOKEN: z
    .string()
    .trim()
    .regex(
      /^[\x21-\x7e]{16,256}$/,
      'METRICS_TOKEN must be 16 to 256 printable characters without spaces (e.g. openssl rand -hex 32)',
    )
    .optional(),
  TELEGRAM_BOT_TOKEN: z
    .string()
    .trim()
    .regex(
      /^\d{5,20}:[A-Za-z0-9_-]{30,80}$/,
      'TELEGRAM_BOT_TOKEN must be the token @BotFather gave the bot (123456:ABC…)',
    )
    .optional(),
  TELEGRAM_API_URL: url('TELEGRAM_API_URL', ['http:', 'https:']).default('https://api.telegram.org'),
});

/** Empty strings count as unset, so `FOO=` in a shell or an env file falls back to the default. */
function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => issue.message));
  }
  const e = parsed.data;
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new ConfigError([
      'HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS (the headers are part of the request)',
    ]);
  }
  if ((e.VAPID_PUBLIC_KEY === undefined) !== (e.VAPID_PRIVATE_KEY === undefined)) {
    throw new ConfigError([
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or neither, to have a pair generated into DATA_DIR)',
    ]);
  }
  if (e.ENGINE_SHARDS > 1 && !e.DATABASE_URL) {
    throw new ConfigError([
      'ENGINE_SHARDS above 1 needs DATABASE_URL (PostgreSQL): the embedded database serves one process, which trades every user',
    ]);
  }
  if (e.ENGINE_SHARDS > 1 && e.MARKET === 'sim') {
    throw new ConfigError([
      'ENGINE_SHARDS above 1 needs MARKET=live: with MARKET=sim every instance simulates its own market, so shards would trade different prices. Use ENGINE_SHARDS=1 with MARKET=sim',
    ]);
  }
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    market: e.MARKET,
    simSeed: e.SIM_SEED,
    simProfile: e.SIM_PROFILE,
    symbols: e.SYMBOLS,
    spreadHistoryDays: e.SPREAD_HISTORY_DAYS,
    priceHz: e.PRICE_HZ,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    allowRegistration: e.ALLOW_REGISTRATION,
    encryptionKey: e.ENCRYPTION_KEY === undefined ? undefined : (parseEncryptionKey(e.ENCRYPTION_KEY) ?? undefined),
    tokenKey: e.TOKEN_KEY === undefined ? undefined : (parseEncryptionKey(e.TOKEN_KEY) ?? undefined),
    tokenTtlSeconds: parseDurationSeconds(e.TOKEN_TTL) ?? 12 * 3600,
    logLevel: e.LOG_LEVEL,
    engine: e.ENGINE === 'on',
    engineShards: e.ENGINE_SHARDS,
    binanceRestUrl: e.BINANCE_REST_URL,
    binanceWsUrl: e.BINANCE_WS_URL,
    derivWsUrl: e.DERIV_WS_URL,
    derivPublicWsUrl: e.DERIV_PUBLIC_WS_URL,
    derivApiUrl: e.DERIV_API_URL,
    derivAppId: e.DERIV_APP_ID,
    tradeMaxHoldMs: e.TRADE_MAX_HOLD_MS,
    quoteMaxAgeMs: e.QUOTE_MAX_AGE_MS,
    quoteMaxSkewMs: e.QUOTE_MAX_SKEW_MS,
    bodyLimit: e.BODY_LIMIT,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    vapidPublicKey: e.VAPID_PUBLIC_KEY,
    vapidPrivateKey: e.VAPID_PRIVATE_KEY,
    vapidSubject: e.VAPID_SUBJECT ?? `mailto:${e.ADMIN_EMAIL}`,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    adminRequire2fa: e.ADMIN_REQUIRE_2FA,
    trustProxy: parseTrustProxy(e.TRUST_PROXY) ?? false,
    metricsToken: e.METRICS_TOKEN,
    telegramBotToken: e.TELEGRAM_BOT_TOKEN,
    telegramApiUrl: e.TELEGRAM_API_URL.replace(/\/+$/, ''),
  };
}
