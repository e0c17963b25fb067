// Validation errors over the API name the field in the user's words (contract/field-messages.ts), never zod's
// default text; a schema's own message (the spec's texts) still wins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readFileSync } from 'node:fs';
import {
  ChangePasswordBody,
  CreateUserBody,
  ProfileBody,
  RegisterBody,
  TradingSettingsBody,
} from '../../../contract/api';
import { fieldLabel, userWords } from '../../../contract/field-messages';
import { bodyFromForm, FORM_DEFAULTS, validateTradingForm } from '../../../src/features/settings/tradingForm';
import {
  validateNewUser,
  validatePasswordChange,
  validateProfile,
  validateRegistration,
} from '../../../src/lib/validation';
import { ZOD_DEFAULT_TEXT } from '../api/fuzz-arbitraries';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/app';

describe('the contract error map', () => {
  const messages = (schema: z.ZodType, input: unknown) =>
    schema.safeParse(input, { error: userWords }).error?.issues.map((i) => i.message) ?? [];

  it('words each kind of issue with the field label', () => {
    const s = z
      .object({
        maxExposure: z.number().max(1_000_000_000),
        totalAmount: z.number().positive(),
        derivAppId: z.string().max(4),
        tradingEnabled: z.boolean(),
        symbol: z.enum(['BTC/USDT', 'ETH/USDT']),
        someNewField: z.number(),
      })
      .strict();
    expect(
      messages(s, {
        maxExposure: 2e9,
        totalAmount: 0,
        derivAppId: '123456',
        tradingEnabled: 'yes',
        symbol: 'X',
        extra: 1,
      }),
    ).toEqual([
      'Max exposure must be at most 1,000,000,000',
      'Amount must be more than 0',
      'Deriv app ID must be at most 4 characters',
      'Enable automated trading must be true or false',
      'Pair must be one of BTC/USDT, ETH/USDT',
      'Some new field is required',
      'Unknown field: extra',
    ]);
  });

  it("keeps a schema's own message", () => {
    expect(
      messages(z.object({ bio: z.string().max(3, 'Bio must be less than 500 characters') }), { bio: 'long' }),
    ).toEqual(['Bio must be less than 500 characters']);
  });

  it('labels nested paths by their last name and the whole input as Request', () => {
    expect(fieldLabel(['legs', 0, 'price'])).toBe('Price');
    expect(fieldLabel([])).toBe('Request');
    expect(messages(z.object({ a: z.number() }), 'text')).toEqual(['Request must be a JSON object']);
  });
});

describe('validation answers over the API', () => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    user = await t.createUser();
  });
  afterAll(async () => {
    await t?.close();
  });

  const answer = async (method: string, url: string, body?: unknown) => {
    const res = await t.request(method, url, { token: user.token, body });
    expect(res.statusCode, res.body).toBe(400);
    const json = res.json() as { message: string; errors?: { msg: string; path?: string }[] };
    for (const text of [json.message, ...(json.errors ?? []).map((e) => e.msg)])
      expect(text).not.toMatch(ZOD_DEFAULT_TEXT);
    return json;
  };

  it('names the trading-settings field and its bound', async () => {
    const url = `/api/users/${user.user._id}`;
    expect((await answer('PUT', url, { maxExposure: 1_000_000_001 })).message).toBe(
      'Max exposure must be at most 1,000,000,000',
    );
    expect((await answer('PUT', url, { maxLoss: 'a lot' })).message).toBe('Max loss must be a number');
    expect((await answer('PUT', url, { minSpread: 0.5 })).message).toBe('Min spread must be at most 10%');
    expect((await answer('PUT', url, { tradingEnabled: 'yes' })).message).toBe(
      'Enable automated trading must be true or false',
    );
  });

  it('words every other schema the same way', async () => {
    expect((await answer('POST', '/api/trades', { symbol: 'BTC/USDT', totalAmount: 20_000_000 })).message).toBe(
      'Amount must be at most 10,000,000',
    );
    expect((await answer('POST', '/api/trades', { symbol: 'FOO/USDT', totalAmount: 5 })).message).toBe(
      'symbol must be a pair such as BTC/USDT',
    );
    expect((await answer('PUT', '/api/auth/profile', { username: 'abc', email: 'a@b.co', bio: 7 })).message).toBe(
      'Bio must be text',
    );
    expect((await answer('PUT', `/api/users/${user.user._id}/api-keys`, { derivAppId: 'A1'.repeat(33) })).message).toBe(
      'The Deriv app ID has at most 64 characters',
    );
    const profile = await answer('PUT', '/api/auth/profile', {});
    expect(profile.errors).toEqual([
      { msg: 'Username is required', path: 'username' },
      { msg: 'Email is required', path: 'email' },
    ]);
  });
});

// The forms check before sending with the texts the schemas answer with (both read contract/messages.ts): for input
// both refuse, the form's message for a field is the server's for that field.
describe('the forms and the schemas say the same thing', () => {
  /** The schema's first message for each field it refuses. */
  const serverSays = (schema: z.ZodType, input: unknown): Record<string, string> => {
    const said: Record<string, string> = {};
    for (const issue of schema.safeParse(input, { error: userWords }).error?.issues ?? []) {
      const field = String(issue.path[0] ?? '');
      said[field] ??= issue.message;
    }
    return said;
  };

  const profile = { username: 'trader', email: 'a@b.co', firstName: '', lastName: '', phone: '', bio: '' };
  it.each([
    { username: '' },
    { username: 'ab' },
    { email: '' },
    { email: 'a@b' },
    { firstName: 'a', lastName: 'b' },
    { phone: '0123456789' },
    { bio: 'x'.repeat(501) },
  ])('profile %j', (patch) => {
    const input = { ...profile, ...patch };
    expect(validateProfile(input)).toEqual(serverSays(ProfileBody, input));
  });

  it.each([
    { currentPassword: '', newPassword: 'new-password' },
    { currentPassword: 'old-password', newPassword: '' },
    { currentPassword: 'old-password', newPassword: 'short' },
    { currentPassword: 'same-password', newPassword: 'same-password' },
  ])('change password %j', (input) => {
    // The confirmation is the form's own field: it never travels.
    const { confirmPassword: _, ...sent } = validatePasswordChange({ ...input, confirmPassword: input.newPassword });
    expect(sent).toEqual(serverSays(ChangePasswordBody, input));
  });

  it.each([
    { username: 'ab', email: 'a@b.co', password: 'long-enough' },
    { username: 'trader', email: 'a@b', password: 'long-enough' },
    { username: 'trader', email: 'a@b.co', password: 'short' },
  ])('registration %j', (input) => {
    expect(validateRegistration(input)).toEqual(serverSays(RegisterBody, input));
  });

  it.each([
    { username: 'newbie', email: '', password: 'secret' },
    { username: 'newbie', email: 'n@b', password: 'secret' },
    { username: 'newbie', email: 'n@b.co', password: '12345' },
  ])('add user %j', (input) => {
    expect(validateNewUser({ ...input, role: 'user' })).toEqual(serverSays(CreateUserBody, { ...input, role: 'user' }));
  });

  it.each([
    { maxExposure: '-1' },
    { maxExposure: '1000000001' },
    { minSpreadPercent: '-0.1' },
    { minSpreadPercent: '10.5' },
    { maxLoss: '-5' },
    { maxLoss: '1000000001' },
  ])('trading settings %j', (patch) => {
    const form = { ...FORM_DEFAULTS, ...patch };
    const said = serverSays(TradingSettingsBody, bodyFromForm(form));
    const formField = { maxExposure: 'maxExposure', minSpread: 'minSpreadPercent', maxLoss: 'maxLoss' } as const;
    const asForm = Object.fromEntries(
      Object.entries(said).map(([field, text]) => [formField[field as keyof typeof formField], text]),
    );
    expect(validateTradingForm(form)).toEqual(asForm);
  });

  it('keeps zod out of the module the client imports', () => {
    const source = readFileSync(new URL('../../../contract/messages.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export)\b.*\bfrom\b/m);
  });
});
