// Response schemas of the core routes. They document the answers in OpenAPI and, because the serializer encodes
// through them, an answer can only carry the fields declared here: a stray secret on an object is dropped.
import { TRADING_STOPS } from '../../../contract/trading-state';
import { z } from 'zod';
import { DERIV_ACCOUNT_TYPES, DERIV_APIS } from '../../../contract/deriv';
import { ROLES } from '../../../contract/domain';
import type { PublicUser } from '../../../contract/entities';
import type { ExposureFunding } from '../../../contract/funding';

export const DerivLinkSchema = z
  .object({
    api: z.enum(DERIV_APIS).nullable().describe('The API the Deriv token belongs to; null until it was looked at'),
    accountId: z.string().describe("The Options account chosen to trade (new API); '' when none"),
    accounts: z.array(
      z.object({
        accountId: z.string(),
        type: z.enum(DERIV_ACCOUNT_TYPES),
        currency: z.string(),
        balance: z.number(),
        status: z.enum(['active', 'inactive']),
      }),
    ),
    checkedAt: z.string().nullable(),
  })
  .describe('What Deriv last said about the saved token');

export const PublicUserSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  isActive: z.boolean(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  bio: z.string(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
  binanceApiKey: z.string().describe("Masked, e.g. '••••abcd', or ''"),
  binanceSecretKey: z.string().describe("'••••' when saved (nothing of a secret is shown), or ''"),
  derivToken: z.string().describe("'••••' when saved (nothing of a secret is shown), or ''"),
  derivAppId: z.string(),
  deriv: DerivLinkSchema,
  hasBinanceApiKey: z.boolean(),
  hasBinanceSecretKey: z.boolean(),
  hasDerivToken: z.boolean(),
  maxExposure: z.number(),
  minSpread: z.number().describe('Fraction, e.g. 0.002 = 0.2 %'),
  maxLoss: z.number().describe('USDT: the largest fall of realised P&L from its peak since trading was enabled'),
  tradingEnabled: z.boolean(),
  tradingStop: z.enum(TRADING_STOPS).nullable().describe('Why automated trading is not running; null while it runs'),
  tradingPausedAt: z
    .string()
    .nullable()
    .describe('When the engine turned trading off by itself (max loss, repeated refusals)'),
  tradingPauseReason: z.string().nullable(),
  timeZone: z.string().nullable().describe("The IANA zone the user reads dates in; null: the browser's own"),
  symbols: z.array(z.templateLiteral([z.string(), '/USDT'])).describe('The pairs the user trades'),
}) satisfies z.ZodType<PublicUser>;

const ok = z.literal(true);

export const LoginAnswer = z.object({
  success: ok,
  user: PublicUserSchema,
  token: z.string(),
  message: z.string().optional(),
});
/** The password was right and the account has two-factor sign-in: the second step follows. */
export const ChallengeAnswer = z.object({
  success: ok,
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
  message: z.string(),
});
const FundingSchema = z.object({
  maxExposure: z.number(),
  funded: z.number().describe('USDT of open trades the balances fund now, fees and commission included'),
  perTradeAsked: z.number().describe('The size of an automated trade the limits ask for'),
  perTrade: z.number().describe('The size the engine will trade at while the balances stay as they are'),
}) satisfies z.ZodType<ExposureFunding>;
export const UserAnswer = z.object({
  success: ok,
  user: PublicUserSchema,
  message: z.string().optional(),
  funding: FundingSchema.optional().describe(
    'Saving trading settings: present when the balances fund less than maxExposure',
  ),
});
export const UsersAnswer = z.object({
  success: ok,
  users: z.array(
    PublicUserSchema.extend({
      twoFactorEnabled: z.boolean().describe('Two-factor sign-in is on (confirmed with a code), so Reset 2FA applies'),
    }),
  ),
});
export const MessageAnswer = z.object({ success: ok, message: z.string() });
export const RegistrationAnswer = z.object({
  success: ok,
  open: z.boolean().describe('Whether POST /auth/register accepts new accounts (ALLOW_REGISTRATION)'),
});
export const TokenMessageAnswer = z.object({ success: ok, message: z.string(), token: z.string() });
