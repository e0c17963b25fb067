import { describe, expect, it } from 'vitest';
import { createPreferencesService, DEVICE_PREFERENCES_KEY } from './devicePreferences';

function memoryStorage(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('device preferences', () => {
  it('has opportunity toasts off by default and keeps a change across a reload', () => {
    const storage = memoryStorage();
    const first = createPreferencesService(storage);
    expect(first.current.opportunityToasts).toBe(false);
    first.update({ opportunityToasts: true });
    expect(createPreferencesService(storage).current.opportunityToasts).toBe(true);
  });

  it('ignores a stored value of the wrong shape', () => {
    for (const raw of ['not json', '{"opportunityToasts":"yes"}', '[]', 'null']) {
      expect(createPreferencesService(memoryStorage({ [DEVICE_PREFERENCES_KEY]: raw })).current.opportunityToasts).toBe(
        false,
      );
    }
  });

  it('works without storage and when storage throws', () => {
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    const s = createPreferencesService(throwing);
    s.update({ opportunityToasts: true });
    expect(s.current.opportunityToasts).toBe(true);
    expect(createPreferencesService(null).current.opportunityToasts).toBe(false);
  });
});
