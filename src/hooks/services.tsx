import { createContext, use, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { AppServices } from '../services/appServices';
import type { AppServicesLoader } from '../services/appServicesLoader';
import type { AuthState } from '../services/auth/authState';
import type { Session } from '../services/session';

// The React side reaches the services through two contexts. The entry's (the REST client, auth and the loader of the
// rest) is provided once by the composition root; the signed-in layer's full services are provided by the signed-in
// layout (SignedInServices), once the guard has loaded them.

export interface EntryServices {
  session: Session;
  appServices: AppServicesLoader;
}

const EntryContext = createContext<EntryServices | null>(null);
const ServicesContext = createContext<AppServices | null>(null);

export function EntryServicesProvider({ value, children }: { value: EntryServices; children: ReactNode }) {
  return <EntryContext.Provider value={value}>{children}</EntryContext.Provider>;
}

export function ServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

/** The signed-in layer's services for `children` (loaded by the guard; suspends in the rare case they are not yet). */
export function SignedInServices({ children }: { children: ReactNode }) {
  const { appServices } = useEntry();
  const services = appServices.current ?? use(appServices.load());
  return <ServicesProvider services={services}>{children}</ServicesProvider>;
}

function useEntry(): EntryServices {
  const e = useContext(EntryContext);
  if (!e) throw new Error('useSession outside EntryServicesProvider');
  return e;
}

/** The REST client and the auth service: all the sign-in screens need. */
export function useSession(): Session {
  return useEntry().session;
}

/** The signed-in layer's services: only below the signed-in layout. */
export function useServices(): AppServices {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('useServices outside ServicesProvider');
  return s;
}

export function useAuth(): AuthState {
  const entry = useContext(EntryContext);
  const services = useContext(ServicesContext);
  const auth = services?.auth ?? entry?.session.auth;
  if (!auth) throw new Error('useAuth outside the services providers');
  return useSyncExternalStore(auth.subscribe, () => auth.state);
}

const noSubscription = () => () => undefined;

/**
 * The signed-in user's time-zone choice when a session is in reach; undefined outside the providers (a panel rendered
 * on its own), where dates fall back to the browser's zone.
 */
export function useChosenTimeZone(): string | null | undefined {
  const entry = useContext(EntryContext);
  const services = useContext(ServicesContext);
  const auth = services?.auth ?? entry?.session.auth;
  return useSyncExternalStore(auth?.subscribe ?? noSubscription, () => auth?.state.user?.timeZone);
}
