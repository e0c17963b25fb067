// Validation rules of spec section 5, checked before a form sends. The texts and patterns are the server's own
// (contract/messages.ts, which loads no zod), so a form and the server's answer say the same thing.
import { EMAIL_PATTERN, MESSAGES as M, PHONE_PATTERN } from '../../contract/messages';

export { EMAIL_PATTERN, PHONE_PATTERN };

export type Errors<K extends string> = Partial<Record<K, string>>;

export interface LoginInput {
  email: string;
  password: string;
}
export function validateLogin(v: LoginInput): Errors<keyof LoginInput> {
  const e: Errors<keyof LoginInput> = {};
  if (!v.email.trim()) e.email = M.emailRequired;
  else if (!EMAIL_PATTERN.test(v.email.trim())) e.email = M.loginEmailInvalid;
  if (!v.password) e.password = M.passwordRequired;
  return e;
}

export interface ProfileInput {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  bio: string;
}
export function validateProfile(v: ProfileInput): Errors<keyof ProfileInput> {
  const e: Errors<keyof ProfileInput> = {};
  const username = v.username.trim();
  if (!username) e.username = M.usernameRequired;
  else if (username.length < 3) e.username = M.usernameShort;
  const email = v.email.trim();
  if (!email) e.email = M.emailRequired;
  else if (!EMAIL_PATTERN.test(email)) e.email = M.emailInvalid;
  if (v.firstName.trim() && v.firstName.trim().length < 2) e.firstName = M.nameShort('First name');
  if (v.lastName.trim() && v.lastName.trim().length < 2) e.lastName = M.nameShort('Last name');
  if (v.phone.trim() && !PHONE_PATTERN.test(v.phone.trim())) e.phone = M.phoneInvalid;
  if (v.bio.length > 500) e.bio = M.bioLong;
  return e;
}

export interface PasswordInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}
export function validatePasswordChange(v: PasswordInput): Errors<keyof PasswordInput> {
  const e: Errors<keyof PasswordInput> = {};
  if (!v.currentPassword) e.currentPassword = M.currentPasswordRequired;
  if (!v.newPassword) e.newPassword = M.newPasswordRequired;
  else if (v.newPassword.length < 8) e.newPassword = M.newPasswordShort;
  else if (v.currentPassword && v.newPassword === v.currentPassword) e.newPassword = M.newPasswordSame;
  if (!v.confirmPassword) e.confirmPassword = M.confirmPasswordRequired;
  else if (v.confirmPassword !== v.newPassword) e.confirmPassword = M.passwordsDiffer;
  return e;
}

export interface NewUserInput {
  username: string;
  email: string;
  password: string;
  role: 'user' | 'admin';
}
export function validateNewUser(v: NewUserInput): Errors<keyof NewUserInput> {
  const e: Errors<keyof NewUserInput> = {};
  if (!v.username.trim()) e.username = M.usernameRequired;
  if (!v.email.trim()) e.email = M.emailRequired;
  else if (!EMAIL_PATTERN.test(v.email.trim())) e.email = M.emailInvalid;
  if (!v.password) e.password = M.passwordRequired;
  else if (v.password.length < 6) e.password = M.createPasswordShort;
  return e;
}

export const hasErrors = (e: object): boolean => Object.keys(e).length > 0;

export interface RegistrationInput {
  username: string;
  email: string;
  password: string;
}
/** The server's RegisterBody rules (contract/api.ts), checked before sending. */
export function validateRegistration(v: RegistrationInput): Errors<keyof RegistrationInput> {
  const e: Errors<keyof RegistrationInput> = {};
  const username = v.username.trim();
  if (!username) e.username = M.usernameRequired;
  else if (username.length < 3) e.username = M.usernameShort;
  if (!v.email.trim()) e.email = M.emailRequired;
  else if (!EMAIL_PATTERN.test(v.email.trim())) e.email = M.emailInvalid;
  if (!v.password) e.password = M.passwordRequired;
  else if (v.password.length < 8) e.password = M.newPasswordShort;
  return e;
}
