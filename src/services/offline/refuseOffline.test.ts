import { describe, expect, it } from 'vitest';
import { messageOf } from '../http';
import { OFFLINE_REFUSAL, OfflineRefusal, refuseWhenOffline } from './refuseOffline';

describe('refuseWhenOffline', () => {
  const sent: string[] = [];
  const actions = {
    saveApiKeys: async (id: string) => void sent.push(`keys:${id}`),
    toggleUserActive: async (id: string) => void sent.push(`toggle:${id}`),
    listUsers: async () => void sent.push('list'),
  };

  it('offline: write calls are refused at once, nothing is sent or queued, and the screen gets a clear message', async () => {
    let online = false;
    const guarded = refuseWhenOffline(actions, () => online);
    const err = await guarded.saveApiKeys('u1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OfflineRefusal);
    expect(messageOf(err, 'Failed to update API keys')).toBe(OFFLINE_REFUSAL);
    await expect(guarded.toggleUserActive('u2')).rejects.toThrow(OFFLINE_REFUSAL);
    expect(sent).toEqual([]);
    online = true;
    await guarded.saveApiKeys('u1');
    expect(sent).toEqual(['keys:u1']);
  });

  it('reads pass through untouched', async () => {
    sent.length = 0;
    await refuseWhenOffline(actions, () => false).listUsers();
    expect(sent).toEqual(['list']);
  });
});
