// A user-timing mark at the moment an element was first painted (Element Timing API: the paint time of the element's
// text, not when React committed it). bench/login-vs-floor.ts reads 'sign-in-painted' to time the usable sign-in form
// against the floor app, which marks its button the same way. Browsers without the API simply get no mark.

export const SIGN_IN_PAINTED = 'sign-in-painted';

interface ElementTiming extends PerformanceEntry {
  identifier: string;
  renderTime: number;
  loadTime: number;
}

/** A ref callback: marks `name` once, when `el` is first painted. Set before paint (refs attach during commit). */
export function markFirstPaint(name: string): (el: Element | null) => void {
  return (el) => {
    if (
      !el ||
      typeof PerformanceObserver === 'undefined' ||
      !PerformanceObserver.supportedEntryTypes?.includes('element')
    )
      return;
    if (performance.getEntriesByName(name, 'mark').length > 0) return;
    el.setAttribute('elementtiming', name);
    const observer = new PerformanceObserver((list) => {
      const entry = (list.getEntries() as ElementTiming[]).find((e) => e.identifier === name);
      if (!entry) return;
      observer.disconnect();
      performance.mark(name, { startTime: entry.renderTime || entry.loadTime });
    });
    observer.observe({ type: 'element', buffered: true });
  };
}
