// The validation texts of spec section 5 and the patterns they check, stated once. The server's schemas
// (contract/api.ts, contract/backtest-body.ts) and the client's form checks (src/lib/validation.ts,
// src/features/settings/tradingForm.ts) both read them, so a form and the server's answer always say the same thing.
// No zod here: the client imports this module at runtime, and zod stays out of its first load.

export const MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  /** The sign-in form's shorter word for a malformed address (the server takes a username there too). */
  loginEmailInvalid: 'Email is invalid',
  passwordRequired: 'Password is required',
  usernameRequired: 'Username is required',
  usernameShort: 'Username must be at least 3 characters',
  nameShort: (field: string) => `${field} must be at least 2 characters`,
  phoneInvalid: 'Please enter a valid phone number',
  bioLong: 'Bio must be less than 500 characters',
  currentPasswordRequired: 'Current password is required',
  newPasswordRequired: 'New password is required',
  newPasswordShort: 'Password must be at least 8 characters',
  newPasswordSame: 'New password must be different from current password',
  /** Checked by the form only: the confirmation never travels. */
  confirmPasswordRequired: 'Please confirm your new password',
  passwordsDiffer: 'Passwords do not match',
  createPasswordShort: 'Password must be at least 6 characters long',
  /** A profile change that collides with another account: which field, and so whose, is not said (as at sign-in). */
  profileNotSaved: 'Your profile could not be saved with that username or email. Choose another.',
} as const;

/** A numeric limit's texts (the trading settings, the backtest's limits), by the field's label. */
export const LIMIT_MESSAGES = {
  required: (label: string) => `${label} is required`,
  notANumber: (label: string) => `${label} must be a number`,
  belowMin: (label: string, min: number | string) => `${label} must be ${min} or more`,
  aboveMax: (label: string, max: string) => `${label} must be at most ${max}`,
} as const;

/** Spec: optional plus, leading non-zero digit, then 7 to 15 digits, spaces, dashes or brackets. */
export const PHONE_PATTERN = /^\+?[1-9][\d\s\-()]{7,15}$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
