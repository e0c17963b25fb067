// The Deriv part of Settings → API Keys as plain functions: the form's own field messages (the contract's rules, so
// the server would say the same), what a save sends, and the words for a token field and an account.
import type { ApiKeysBody } from '../../../contract/api';
import {
  DERIV_PAT_PLACE,
  derivAppIdProblem,
  derivTokenProblem,
  NO_DERIV_LINK,
  type DerivAccountInfo,
  type DerivLink,
} from '../../../contract/deriv';
import type { PublicUser } from '../../../contract/entities';

export interface DerivFormValues {
  token: string;
  appId: string;
}
export type DerivFormErrors = Partial<Record<keyof DerivFormValues, string>>;

export function derivFormErrors(values: DerivFormValues): DerivFormErrors {
  const errors: DerivFormErrors = {};
  const token = derivTokenProblem(values.token.trim());
  const appId = derivAppIdProblem(values.appId.trim());
  if (token) errors.token = token;
  if (appId) errors.appId = appId;
  return errors;
}

/** What Save Token sends: the token when one was typed (empty keeps the saved one), the app ID when it changed. */
export function derivSaveBody(values: DerivFormValues, savedAppId: string): ApiKeysBody {
  const body: ApiKeysBody = {};
  const token = values.token.trim();
  const appId = values.appId.trim();
  if (token) body.derivToken = token;
  if (appId !== savedAppId) body.derivAppId = appId;
  return body;
}

/** The server's field names for the form's fields, to mark a refusal under its field. */
export const DERIV_FIELDS: Record<string, keyof DerivFormValues> = { derivToken: 'token', derivAppId: 'appId' };

export const TOKEN_HINT = `A personal access token (new API: ${DERIV_PAT_PLACE}, with the trade scope) or a legacy API token.`;
export const APP_ID_HINT =
  'New API: the app ID your personal access token was made for (letters and digits). Legacy token: optional.';

/** The user's Deriv link; a user record cached before links existed has none. */
export const derivLinkOf = (user: PublicUser): DerivLink =>
  (user as Partial<Pick<PublicUser, 'deriv'>>).deriv ?? NO_DERIV_LINK;

/** 'DOT5003 · 10,000.00 USD' */
export function accountFigures(account: DerivAccountInfo): string {
  const balance = account.balance.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${account.accountId} · ${balance} ${account.currency}`;
}
