// Validation messages in the user's words, one mapping for every request schema: a field's name as the user knows it
// ('Max exposure') and what is wrong with it ('must be at most 1,000,000,000'), never zod's default text ('Too big:
// expected number to be <=1000000000'). A schema's own message (MESSAGES in api.ts, the spec's texts) always wins; this
// map speaks only where a schema gave none. The server passes it to every parse (server/http/plugins/validation.ts).
import type { z } from 'zod';

/** Fields by their wire names, as the screens label them. Unknown names are spelled out from camelCase. */
export const FIELD_LABELS: Record<string, string> = {
  maxExposure: 'Max exposure',
  minSpread: 'Min spread',
  maxLoss: 'Max loss',
  tradingEnabled: 'Enable automated trading',
  username: 'Username',
  email: 'Email',
  password: 'Password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  firstName: 'First name',
  lastName: 'Last name',
  phone: 'Phone',
  bio: 'Bio',
  role: 'Role',
  binanceApiKey: 'Binance API key',
  binanceSecretKey: 'Binance secret key',
  derivToken: 'Deriv token',
  derivAppId: 'Deriv app ID',
  derivAccountId: 'Deriv account',
  totalAmount: 'Amount',
  actualProfit: 'Profit',
  symbol: 'Pair',
  status: 'Status',
  exchange: 'Exchange',
  apiKey: 'API key',
  secretKey: 'Secret key',
  token: 'Token',
  appId: 'App ID',
  id: 'Id',
  page: 'Page',
  limit: 'Page size',
  search: 'Search',
};

/** The label of the last named segment of a path; 'Request' when the whole input is at fault. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const key = [...path].reverse().find((p): p is string => typeof p === 'string');
  if (!key) return 'Request';
  const known = FIELD_LABELS[key];
  if (known) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const figure = (n: unknown): string =>
  typeof n === 'number' || typeof n === 'bigint'
    ? Number(n).toLocaleString('en-US', { maximumFractionDigits: 8 })
    : String(n);

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a list',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'a valid email address',
  uuid: 'a valid id',
  guid: 'a valid id',
  datetime: 'an ISO 8601 date-time, e.g. 2026-01-01T00:00:00Z',
  regex: 'in the expected format',
};

type Issue = z.core.$ZodRawIssue;

/** The message for one zod issue, in the user's words. */
export function userWords(issue: Issue): string {
  const label = fieldLabel(issue.path ?? []);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${label} is required`;
      return `${label} must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_big': {
      const max = figure(issue.maximum);
      if (issue.origin === 'string') return `${label} must be at most ${max} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${label} must have at most ${max} items`;
      return issue.inclusive === false ? `${label} must be less than ${max}` : `${label} must be at most ${max}`;
    }
    case 'too_small': {
      const min = figure(issue.minimum);
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? `${label} is required` : `${label} must be at least ${min} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${label} must have at least ${min} items`;
      return issue.inclusive === false ? `${label} must be more than ${min}` : `${label} must be at least ${min}`;
    }
    case 'invalid_value':
      return `${label} must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_format':
      return `${label} must be ${FORMAT_WORDS[issue.format] ?? 'in the expected format'}`;
    case 'not_multiple_of':
      return `${label} must be a multiple of ${figure(issue.divisor)}`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    default:
      return `${label} is not valid`;
  }
}
