// The token service remembers verified tokens (the API's hot path); remembering must never make a token valid that
// a fresh check would refuse.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from '../../../server/security/tokens';

describe('verified-token memory', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a remembered token with the same claims, and refuses a tampered or foreign one', async () => {
    const tokens = createTokenService(randomBytes(32));
    const token = await tokens.sign({ sub: 'user-1', sid: 'session-1', role: 'user' }, new Date(Date.now() + 60_000));
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ sub: 'user-1', sid: 'session-1', role: 'user' });
    expect(await tokens.verify(token)).toEqual(first);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const tampered = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(tampered)).toBeNull();
    expect(await createTokenService(randomBytes(32)).verify(token)).toBeNull();
  });

  it('stops honouring a remembered token once it has expired', async () => {
    const tokens = createTokenService(randomBytes(32));
    const expiresAt = new Date(Date.now() + 60_000);
    const token = await tokens.sign({ sub: 'user-1', sid: 'session-1', role: 'admin' }, expiresAt);
    expect(await tokens.verify(token)).not.toBeNull();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expiresAt.getTime() + 1_000);
    expect(await tokens.verify(token)).toBeNull();
  });
});
