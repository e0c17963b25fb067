import { createContext, useContext, type ReactNode } from 'react';
import { useObservableEagerState } from 'observable-hooks';
import type { AppServices } from '../services/appServices';
import type { AuthState } from '../services/auth/authState';

// The React side reaches the services through this context: the composition root provides them once.
const ServicesContext = createContext<AppServices | null>(null);

export function ServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): AppServices {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('useServices outside ServicesProvider');
  return s;
}

export function useAuth(): AuthState {
  return useObservableEagerState(useServices().auth.state$);
}
