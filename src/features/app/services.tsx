import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useObservableEagerState, useObservableState } from 'observable-hooks';
import type { Observable } from 'rxjs';
import type { AppServices } from '../../services/appServices';
import type { AuthState } from '../../services/auth/authState';
import type { Live } from '../../services/streams/liveState';

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

/** Reads a domain stream; `initial` covers the frame before a coalesced stream's first value. */
export function useLive<T>(stream$: Observable<Live<T>>, initial: T): Live<T> {
  return useObservableState(stream$, { value: initial, loading: true, source: 'initial', updatedAt: null, error: null });
}

/**
 * For streams already coalesced to animation frames (prices): the update is rendered synchronously inside the frame
 * callback, so it is painted in that same frame instead of the next one.
 */
export function useFrameLive<T>(stream$: Observable<Live<T>>, initial: T): Live<T> {
  const [state, setState] = useState<Live<T>>({ value: initial, loading: true, source: 'initial', updatedAt: null, error: null });
  useEffect(() => {
    let mounted = false;
    const sub = stream$.subscribe((v) => {
      if (mounted) flushSync(() => setState(v));
      else setState(v);
    });
    mounted = true;
    return () => sub.unsubscribe();
  }, [stream$]);
  return state;
}
