import { BehaviorSubject } from 'rxjs';

// The auth state as a BehaviorSubject and a fetch-based sign-in, as an app on this stack would keep it in its entry.
export interface AuthState {
  token: string | null;
}

export const auth$ = new BehaviorSubject<AuthState>({ token: localStorage.getItem('token') });

export async function signIn(username: string, password: string): Promise<{ ok: boolean; message: string }> {
  try {
    const res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = (await res.json()) as { token?: string; message?: string };
    if (!res.ok || !body.token) return { ok: false, message: body.message ?? 'Login failed' };
    localStorage.setItem('token', body.token);
    auth$.next({ token: body.token });
    return { ok: true, message: 'Login successful!' };
  } catch {
    return { ok: false, message: 'An unexpected error occurred. Please try again.' };
  }
}
