import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether any part of the element is within the viewport, kept up to date as the page scrolls (IntersectionObserver).
 * True where the browser has no IntersectionObserver, so nothing is held back there.
 */
export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) setOnScreen(last.isIntersecting);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return onScreen;
}
