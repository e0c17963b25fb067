import type { ErrorItem } from '../../contract/api';

// REST client of spec section 7: every call goes to /api on our own origin with the bearer token when one exists.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: ErrorItem[] = [],
    /** The server's own text, when it gave one; callers fall back to their spec text otherwise. */
    readonly serverMessage: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

export interface HttpDeps {
  getToken: () => string | null;
  /** Called on a 401 from any call but login: the session is over. The server's reason, when it gave one. */
  onUnauthorized: (serverMessage: string | null) => void;
  fetch?: typeof fetch;
  baseUrl?: string;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface Http {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
  /** A file the server streams (not JSON), with the name its Content-Disposition gives. */
  download(path: string, query?: Query): Promise<Downloaded>;
}

export interface Downloaded {
  blob: Blob;
  fileName: string | null;
}

/** filename="x.csv" from a Content-Disposition header. */
export function fileNameOf(disposition: string | null): string | null {
  const match = /filename="([^"]+)"/.exec(disposition ?? '');
  return match?.[1] ?? null;
}

function buildUrl(base: string, path: string, query?: Query): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return `${base}${path}${s ? `?${s}` : ''}`;
}

export function createHttp(deps: HttpDeps): Http {
  const base = deps.baseUrl ?? '/api';
  const doFetch = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));

  async function request<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = deps.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await doFetch(buildUrl(base, path, query), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, 'Network error: the server could not be reached');
    }
    const json = (await res.json().catch(() => null)) as (Record<string, unknown> & { success?: boolean }) | null;
    if (!res.ok || json?.success === false) {
      const serverMessage = typeof json?.message === 'string' ? json.message : null;
      const errors = Array.isArray(json?.errors) ? (json.errors as ErrorItem[]) : [];
      // A refused sign-in (either step) is an answer, not the end of a session; nor is a 401 for a token that was
      // replaced meanwhile (a password change revokes the old session and hands back a new token in its answer).
      if (res.status === 401 && !path.startsWith('/auth/login') && deps.getToken() === token)
        deps.onUnauthorized(serverMessage);
      throw new ApiError(
        res.ok ? 400 : res.status,
        serverMessage ?? `Request failed (${res.status})`,
        errors,
        serverMessage,
      );
    }
    return json as T;
  }

  async function download(path: string, query?: Query): Promise<Downloaded> {
    const token = deps.getToken();
    let res: Response;
    try {
      res = await doFetch(buildUrl(base, path, query), { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    } catch {
      throw new ApiError(0, 'Network error: the server could not be reached');
    }
    if (!res.ok) {
      const json = (await res.json().catch(() => null)) as { message?: unknown } | null;
      const serverMessage = typeof json?.message === 'string' ? json.message : null;
      if (res.status === 401 && deps.getToken() === token) deps.onUnauthorized(serverMessage);
      throw new ApiError(res.status, serverMessage ?? `Request failed (${res.status})`, [], serverMessage);
    }
    return { blob: await res.blob(), fileName: fileNameOf(res.headers.get('content-disposition')) };
  }

  return {
    download,
    get: (path, query) => request('GET', path, undefined, query),
    post: (path, body) => request('POST', path, body ?? {}),
    put: (path, body) => request('PUT', path, body ?? {}),
    del: (path) => request('DELETE', path),
  };
}

/** The server's message when it sent one, else the spec's fallback text. */
export function messageOf(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.serverMessage ? err.serverMessage : fallback;
}
