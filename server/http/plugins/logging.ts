// Logger options (pino under Fastify). Secrets must never reach a log line: headers that carry tokens and every
// field that can hold a password, token or venue credential are censored wherever they appear in a logged object.
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../../config';

/** Anything with write(line): a file stream, stdout, or an array collector in tests. */
export interface LogSink {
  write(line: string): void;
}

const SECRET_KEYS = [
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'token',
  'binanceApiKey',
  'binanceSecretKey',
  'derivToken',
  // A Deriv one-time password opens a trading socket: never logged, should one ever sit in a logged object.
  'otp',
  'apiKey',
  'secretKey',
  'secret',
  'credentials',
  'authorization',
  'cookie',
];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'res.headers["set-cookie"]',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `body.${key}`, `req.body.${key}`]),
];

export function loggerOptions(level: LogLevel, sink?: LogSink): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(sink && { stream: sink }),
  };
}
