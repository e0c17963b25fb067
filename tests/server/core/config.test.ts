import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDurationSeconds, parseEncryptionKey } from '../../../server/config';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: './data',
      databaseUrl: undefined,
      redisUrl: undefined,
      market: 'sim',
      simProfile: 'calibrated',
      spreadHistoryDays: 30,
      priceHz: 4,
      adminEmail: 'admin@arbitrage.local',
      adminPassword: undefined,
      allowRegistration: false,
      encryptionKey: undefined,
      tokenKey: undefined,
      tokenTtlSeconds: 12 * 3600,
      logLevel: 'info',
      engine: true,
      engineShards: 1,
      binanceRestUrl: 'https://api.binance.com',
      binanceWsUrl: 'wss://stream.binance.com:9443',
      derivWsUrl: 'wss://ws.derivws.com/websockets/v3',
      derivPublicWsUrl: 'wss://api.derivws.com/trading/v1/options/ws/public',
      derivApiUrl: 'https://api.derivws.com',
      derivAppId: '1089',
      tradeMaxHoldMs: 120_000,
      bodyLimit: 65_536,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
    });
  });

  it('reads every variable', () => {
    const key = 'ab'.repeat(32);
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '3000',
      DATA_DIR: '/var/lib/arb',
      DATABASE_URL: 'postgres://u@db:5432/arb',
      REDIS_URL: 'redis://cache:6379',
      MARKET: 'live',
      SIM_SEED: '42',
      SIM_PROFILE: 'demo',
      SPREAD_HISTORY_DAYS: '7',
      PRICE_HZ: '10',
      ADMIN_EMAIL: 'ops@example.com',
      ADMIN_PASSWORD: 'a-long-password',
      ALLOW_REGISTRATION: 'true',
      ENCRYPTION_KEY: key,
      TOKEN_KEY: 'cd'.repeat(32),
      TOKEN_TTL: '30m',
      LOG_LEVEL: 'debug',
      ENGINE: 'off',
      ENGINE_SHARDS: '4',
      BINANCE_REST_URL: 'http://127.0.0.1:9000',
      BINANCE_WS_URL: 'ws://127.0.0.1:9001',
      DERIV_WS_URL: 'ws://127.0.0.1:9002',
      DERIV_PUBLIC_WS_URL: 'ws://127.0.0.1:9003/trading/v1/options/ws/public',
      DERIV_API_URL: 'http://127.0.0.1:9003',
      TRADE_MAX_HOLD_MS: '5000',
      BODY_LIMIT: '10000',
      REQUEST_TIMEOUT_MS: '20000',
      HEADERS_TIMEOUT_MS: '5000',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 3000,
      databaseUrl: 'postgres://u@db:5432/arb',
      market: 'live',
      simSeed: 42,
      simProfile: 'demo',
      spreadHistoryDays: 7,
      priceHz: 10,
      allowRegistration: true,
      tokenTtlSeconds: 1800,
      engine: false,
      engineShards: 4,
      tradeMaxHoldMs: 5000,
      bodyLimit: 10_000,
      derivPublicWsUrl: 'ws://127.0.0.1:9003/trading/v1/options/ws/public',
      derivApiUrl: 'http://127.0.0.1:9003',
      requestTimeoutMs: 20_000,
      headersTimeoutMs: 5000,
    });
    expect(config.encryptionKey?.toString('hex')).toBe(key);
    expect(config.tokenKey?.toString('hex')).toBe('cd'.repeat(32));
  });

  it('shards the engine only on PostgreSQL with the live market', () => {
    expect(problems({ ENGINE_SHARDS: '2', MARKET: 'live' })).toEqual([
      'ENGINE_SHARDS above 1 needs DATABASE_URL (PostgreSQL): the embedded database serves one process, which trades every user',
    ]);
    expect(problems({ ENGINE_SHARDS: '2', DATABASE_URL: 'postgres://u@db/arb' })).toEqual([
      'ENGINE_SHARDS above 1 needs MARKET=live: with MARKET=sim every instance simulates its own market, so shards would trade different prices. Use ENGINE_SHARDS=1 with MARKET=sim',
    ]);
    expect(problems({ ENGINE_SHARDS: '0' })).toEqual(['ENGINE_SHARDS must be between 1 and 1024']);
    expect(loadConfig({ ENGINE_SHARDS: '1', DATABASE_URL: 'postgres://u@db/arb' }).engineShards).toBe(1);
  });

  it('refuses an admin e-mail the sign-in form would reject', () => {
    expect(problems({ ADMIN_EMAIL: 'admin@localhost' })).toEqual([
      'ADMIN_EMAIL must be an e-mail address the sign-in form accepts (name@domain.tld), e.g. admin@example.com',
    ]);
  });

  it('keeps the headers timeout within the request timeout', () => {
    expect(problems({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toEqual([
      'HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS (the headers are part of the request)',
    ]);
    expect(problems({ REQUEST_TIMEOUT_MS: '0' })).toEqual(['REQUEST_TIMEOUT_MS must be between 1000 and 600000']);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it('names each bad value with a message that says what is expected', () => {
    expect(
      problems({
        PORT: 'eighty',
        MARKET: 'paper',
        DATABASE_URL: 'mysql://x',
        ADMIN_EMAIL: 'nobody',
        ADMIN_PASSWORD: 'short',
        ALLOW_REGISTRATION: 'maybe',
        ENCRYPTION_KEY: 'too-short',
        TOKEN_KEY: 'also-short',
        TOKEN_TTL: 'forever',
        ENGINE: 'yes',
        LOG_LEVEL: 'loud',
        BINANCE_WS_URL: 'https://x',
      }),
    ).toEqual([
      'PORT must be a whole number',
      'DATABASE_URL must be a postgres:// or postgresql:// URL',
      "MARKET must be 'sim' or 'live'",
      'ADMIN_EMAIL must be an e-mail address the sign-in form accepts (name@domain.tld), e.g. admin@example.com',
      'ADMIN_PASSWORD must be at least 8 characters',
      'ALLOW_REGISTRATION must be true or false',
      'ENCRYPTION_KEY must be 64 hex characters or the base64 of 32 bytes',
      'TOKEN_KEY must be 64 hex characters or the base64 of 32 bytes',
      "TOKEN_TTL must be a duration such as '12h', '30m' or '3600'",
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      "ENGINE must be 'on' or 'off'",
      'BINANCE_WS_URL must be a ws:// or wss:// URL',
    ]);
    expect(problems({ PORT: '70000' })).toEqual(['PORT must be between 0 and 65535']);
    expect(problems({ SIM_PROFILE: 'lively', SPREAD_HISTORY_DAYS: '0' })).toEqual([
      "SIM_PROFILE must be one of 'calibrated', 'demo'",
      'SPREAD_HISTORY_DAYS must be between 1 and 365',
    ]);
    expect(problems({ BODY_LIMIT: '10' })[0]).toMatch(/^BODY_LIMIT must be between/);
    expect(
      problems({
        DERIV_PUBLIC_WS_URL: 'https://api.derivws.com',
        DERIV_API_URL: 'wss://api.derivws.com',
        DERIV_APP_ID: 'abc',
      }),
    ).toEqual([
      'DERIV_PUBLIC_WS_URL must be a ws:// or wss:// URL',
      'DERIV_API_URL must be a http:// or https:// URL',
      'DERIV_APP_ID must be the number Deriv gave your legacy app',
    ]);
  });

  it('parses durations and keys', () => {
    expect(parseDurationSeconds('12h')).toBe(43_200);
    expect(parseDurationSeconds('7d')).toBe(604_800);
    expect(parseDurationSeconds('90')).toBe(90);
    expect(parseDurationSeconds('0s')).toBeNull();
    expect(parseDurationSeconds('1y')).toBeNull();
    expect(parseEncryptionKey(Buffer.alloc(32, 7).toString('base64'))?.length).toBe(32);
    expect(parseEncryptionKey(Buffer.alloc(16, 7).toString('base64'))).toBeNull();
  });
});
