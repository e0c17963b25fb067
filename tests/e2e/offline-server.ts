// Where the shared e2e server is: provided by the suite's globalSetup, or E2E_BASE_URL etc. for a server started by hand.
import { inject } from 'vitest';

export interface E2eServer {
  url: string;
  adminEmail: string;
  adminPassword: string;
}

export function e2eServer(): E2eServer {
  const provided = (key: string): string | undefined => {
    try {
      return (inject as (k: string) => unknown)(key) as string | undefined;
    } catch {
      return undefined;
    }
  };
  const url = process.env.E2E_BASE_URL ?? provided('baseUrl');
  const adminEmail = process.env.E2E_ADMIN_EMAIL ?? provided('adminEmail');
  const adminPassword = process.env.E2E_ADMIN_PASSWORD ?? provided('adminPassword');
  if (!url || !adminEmail || !adminPassword)
    throw new Error('e2e server unknown: no globalSetup provide() and no E2E_BASE_URL');
  return { url, adminEmail, adminPassword };
}
