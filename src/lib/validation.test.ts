import { describe, expect, it } from 'vitest';
import { validateLogin, validateNewUser, validatePasswordChange, validateProfile } from './validation';

const profile = { username: 'trader', email: 'a@b.co', firstName: '', lastName: '', phone: '', bio: '' };
const password = { currentPassword: 'old-password', newPassword: 'new-password', confirmPassword: 'new-password' };

describe('validation rules of spec section 5', () => {
  it.each([
    [{ email: '', password: 'x' }, { email: 'Email is required' }],
    [{ email: 'nope', password: 'x' }, { email: 'Email is invalid' }],
    [{ email: 'a@b', password: 'x' }, { email: 'Email is invalid' }],
    [{ email: 'a@b.c', password: '' }, { password: 'Password is required' }],
    [{ email: 'a@b.c', password: 'x' }, {}],
  ])('login %j', (input, expected) => expect(validateLogin(input)).toEqual(expected));

  it.each([
    [{}, {}],
    [{ username: '' }, { username: 'Username is required' }],
    [{ username: 'ab' }, { username: 'Username must be at least 3 characters' }],
    [{ email: '' }, { email: 'Email is required' }],
    [{ email: 'a@b' }, { email: 'Please enter a valid email address' }],
    [{ firstName: ' a ' }, { firstName: 'First name must be at least 2 characters' }],
    [{ lastName: 'b' }, { lastName: 'Last name must be at least 2 characters' }],
    [{ firstName: 'Al', lastName: 'Bo' }, {}],
    [{ phone: '0123456789' }, { phone: 'Please enter a valid phone number' }],
    [{ phone: '+1 (555) 123-4567' }, {}],
    [{ phone: '+4412345' }, { phone: 'Please enter a valid phone number' }],
    [{ phone: '+44123456' }, {}],
    [{ bio: 'x'.repeat(500) }, {}],
    [{ bio: 'x'.repeat(501) }, { bio: 'Bio must be less than 500 characters' }],
  ])('profile %j', (patch, expected) => expect(validateProfile({ ...profile, ...patch })).toEqual(expected));

  it.each([
    [{}, {}],
    [{ currentPassword: '' }, { currentPassword: 'Current password is required' }],
    [
      { newPassword: '', confirmPassword: '' },
      { newPassword: 'New password is required', confirmPassword: 'Please confirm your new password' },
    ],
    [{ newPassword: 'short', confirmPassword: 'short' }, { newPassword: 'Password must be at least 8 characters' }],
    [{ confirmPassword: 'other-password' }, { confirmPassword: 'Passwords do not match' }],
    [
      { newPassword: 'old-password', confirmPassword: 'old-password' },
      { newPassword: 'New password must be different from current password' },
    ],
  ])('change password %j', (patch, expected) =>
    expect(validatePasswordChange({ ...password, ...patch })).toEqual(expected),
  );

  it.each([
    [{ username: 'newbie', email: 'n@b.co', password: 'secret', role: 'user' as const }, {}],
    [
      { username: '', email: '', password: '', role: 'user' as const },
      { username: 'Username is required', email: 'Email is required', password: 'Password is required' },
    ],
    [
      { username: 'newbie', email: 'n@b.co', password: '12345', role: 'admin' as const },
      { password: 'Password must be at least 6 characters long' },
    ],
  ])('add user %j', (input, expected) => expect(validateNewUser(input)).toEqual(expected));
});
