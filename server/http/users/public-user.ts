// The user record as the API shows it: no password hash, no secret — only masks and has-flags.
import type { PublicUser } from '../../../contract/entities';
import type { UserRow, VenueCredentialsRow } from '../../db/schema';
import { derivLinkOf } from '../../db/repositories/credentials';
import { maskSecret } from '../../security/masking';
import { userSymbols } from '../../venues/enabled-pairs';

export function toPublicUser(user: UserRow, credentials: VenueCredentialsRow | null): PublicUser {
  const hasBinanceApiKey = Boolean(credentials?.binanceApiKeyEnc);
  const hasBinanceSecretKey = Boolean(credentials?.binanceSecretKeyEnc);
  const hasDerivToken = Boolean(credentials?.derivTokenEnc);
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    isActive: user.isActive,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    bio: user.bio,
    createdAt: user.createdAt.toISOString(),
    lastLogin: user.lastLogin ? user.lastLogin.toISOString() : null,
    binanceApiKey: maskSecret(credentials?.binanceApiKeyLast4, hasBinanceApiKey),
    // Nothing of a secret is shown, only that it is saved; the public API key shows its last 4 characters.
    binanceSecretKey: maskSecret(null, hasBinanceSecretKey),
    derivToken: maskSecret(null, hasDerivToken),
    derivAppId: credentials?.derivAppId ?? '',
    deriv: derivLinkOf(credentials),
    hasBinanceApiKey,
    hasBinanceSecretKey,
    hasDerivToken,
    maxExposure: Number(user.maxExposure),
    minSpread: Number(user.minSpread),
    maxLoss: Number(user.maxLoss),
    tradingEnabled: user.tradingEnabled,
    tradingStop: user.tradingStop,
    tradingPausedAt: user.tradingPausedAt ? user.tradingPausedAt.toISOString() : null,
    tradingPauseReason: user.tradingPauseReason,
    timeZone: user.timeZone,
    symbols: userSymbols(user.symbols),
  };
}
