import { useObservableState } from 'observable-hooks';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Observable } from 'rxjs';
import type { Live } from '../services/streams/liveState';

/** Reads a domain stream; `initial` covers the frame before a coalesced stream's first value. */
export function useLive<T>(stream$: Observable<Live<T>>, initial: T): Live<T> {
  return useObservableState(stream$, {
    value: initial,
    loading: true,
    source: 'initial',
    updatedAt: null,
    error: null,
  });
}

/**
 * For streams already coalesced to animation frames (prices): the update is rendered synchronously inside the frame
 * callback, so it is painted in that same frame instead of the next one.
 */
export function useFrameLive<T>(stream$: Observable<Live<T>>, initial: T): Live<T> {
  const [state, setState] = useState<Live<T>>({
    value: initial,
    loading: true,
    source: 'initial',
    updatedAt: null,
    error: null,
  });
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
