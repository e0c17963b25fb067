// Validation rules and texts of spec section 5. The texts mirror contract/api.ts MESSAGES; they are kept here
// because importing contract/api.ts at runtime would pull zod into the client's first load.

export type Errors<K extends string> = Partial<Record<K, string>>;

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Optional plus, leading non-zero digit, then 7 to 15 digits, spaces, dashes or brackets. */
export const PHONE_PATTERN = /^\+?[1-9][\d\s\-()]{7,15}$/;

export interface LoginInput {
  email: string;
  password: string;
}
export function validateLogin(v: LoginInput): Errors<keyof LoginInput> {
  const e: Errors<keyof LoginInput> = {};
  if (!v.email.trim()) e.email = 'Email is required';
  else if (!EMAIL_PATTERN.test(v.email.trim())) e.email = 'Email is invalid';
  if (!v.password) e.password = 'Password is required';
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
  if (!username) e.username = 'Username is required';
  else if (username.length < 3) e.username = 'Username must be at least 3 characters';
  const email = v.email.trim();
  if (!email) e.email = 'Email is required';
  else if (!EMAIL_PATTERN.test(email)) e.email = 'Please enter a valid email address';
  if (v.firstName.trim() && v.firstName.trim().length < 2) e.firstName = 'First name must be at least 2 characters';
  if (v.lastName.trim() && v.lastName.trim().length < 2) e.lastName = 'Last name must be at least 2 characters';
  if (v.phone.trim() && !PHONE_PATTERN.test(v.phone.trim())) e.phone = 'Please enter a valid phone number';
  if (v.bio.length > 500) e.bio = 'Bio must be less than 500 characters';
  return e;
}

export interface PasswordInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}
export function validatePasswordChange(v: PasswordInput): Errors<keyof PasswordInput> {
  const e: Errors<keyof PasswordInput> = {};
  if (!v.currentPassword) e.currentPassword = 'Current password is required';
  if (!v.newPassword) e.newPassword = 'New password is required';
  else if (v.newPassword.length < 8) e.newPassword = 'Password must be at least 8 characters';
  else if (v.currentPassword && v.newPassword === v.currentPassword)
    e.newPassword = 'New password must be different from current password';
  if (!v.confirmPassword) e.confirmPassword = 'Please confirm your new password';
  else if (v.confirmPassword !== v.newPassword) e.confirmPassword = 'Passwords do not match';
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
  if (!v.username.trim()) e.username = 'Username is required';
  if (!v.email.trim()) e.email = 'Email is required';
  else if (!EMAIL_PATTERN.test(v.email.trim())) e.email = 'Please enter a valid email address';
  if (!v.password) e.password = 'Password is required';
  else if (v.password.length < 6) e.password = 'Password must be at least 6 characters long';
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
  if (!username) e.username = 'Username is required';
  else if (username.length < 3) e.username = 'Username must be at least 3 characters';
  if (!v.email.trim()) e.email = 'Email is required';
  else if (!EMAIL_PATTERN.test(v.email.trim())) e.email = 'Please enter a valid email address';
  if (!v.password) e.password = 'Password is required';
  else if (v.password.length < 8) e.password = 'Password must be at least 8 characters';
  return e;
}
