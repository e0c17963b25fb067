import type { PublicUser } from '../../../contract/entities';

// The session lives in localStorage under the spec's keys `token` and `user`.
export interface SessionStore {
  read(): { token: string | null; user: PublicUser | null };
  write(token: string, user: PublicUser): void;
  writeUser(user: PublicUser): void;
  writeToken(token: string): void;
  clear(): void;
}

function parseUser(raw: string | null): PublicUser | null {
  if (!raw) return null;
  try {
    const u = JSON.parse(raw) as PublicUser | null;
    return u && typeof u === 'object' && typeof u._id === 'string' ? u : null;
  } catch {
    return null;
  }
}

export function createLocalSessionStore(storage: Storage | null = safeLocalStorage()): SessionStore {
  const set = (k: string, v: string) => {
    try {
      storage?.setItem(k, v);
    } catch {
      // Storage full or blocked: the session lives in memory for this visit.
    }
  };
  return {
    read: () => ({ token: storage?.getItem('token') ?? null, user: parseUser(storage?.getItem('user') ?? null) }),
    write(token, user) {
      set('token', token);
      set('user', JSON.stringify(user));
    },
    writeUser: (user) => set('user', JSON.stringify(user)),
    writeToken: (token) => set('token', token),
    clear() {
      try {
        storage?.removeItem('token');
        storage?.removeItem('user');
      } catch {
        // nothing stored to clear
      }
    },
  };
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
