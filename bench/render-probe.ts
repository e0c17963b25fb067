// Runs inside the page before any of its scripts (addInitScript): records when each priceUpdate frame arrives on the
// WebSocket and when each new price value is painted, so message-to-paint latency can be computed per message.

export interface ProbeData {
  arrivals: [seq: number, at: number][];
  paints: [seq: number, at: number][];
  longTasks: [start: number, duration: number][];
}

export function installProbe(cfg: { base: number; step: number; selector: string }): void {
  const w = window as unknown as { __probe: ProbeData };
  const data: ProbeData = { arrivals: [], paints: [], longTasks: [] };
  w.__probe = data;
  const seqOf = (price: number) => Math.round((price - cfg.base) / cfg.step);

  // Arrival: wrap the onmessage setter that socket.io-client's websocket transport uses.
  const desc = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  if (desc?.set && desc.get) {
    Object.defineProperty(WebSocket.prototype, 'onmessage', {
      configurable: true,
      get() {
        return desc.get?.call(this);
      },
      set(fn: (ev: MessageEvent) => unknown) {
        desc.set?.call(this, (ev: MessageEvent) => {
          if (typeof ev.data === 'string' && ev.data.includes('priceUpdate')) {
            const m = /"binance":([\d.]+)/.exec(ev.data);
            if (m) data.arrivals.push([seqOf(Number(m[1])), performance.now()]);
          }
          return fn.call(this, ev);
        });
      },
    });
  }

  // Paint: a DOM change made inside a frame's animation callbacks is painted in that frame; one made in an ordinary
  // task is painted in the next frame. A message posted from inside a frame runs after that frame is rendered.
  // `inFrame` is true from the start of each frame's callbacks (this loop registers first) until that frame is done.
  let inFrame = false;
  const frameEnd = new MessageChannel();
  frameEnd.port1.onmessage = () => {
    inFrame = false;
  };
  const loop = () => {
    inFrame = true;
    frameEnd.port2.postMessage(0);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  const channel = new MessageChannel();
  let pending: number | null = null;
  channel.port1.onmessage = () => {
    if (pending !== null) data.paints.push([pending, performance.now()]);
    pending = null;
  };
  const watch = () => {
    const el = document.querySelector(cfg.selector);
    if (!el) return false;
    new MutationObserver(() => {
      const value = Number((el.textContent ?? '').replace(/[^\d.]/g, ''));
      if (!Number.isFinite(value) || value < cfg.base) return;
      const seq = seqOf(value);
      if (pending === null) {
        if (inFrame) channel.port2.postMessage(0);
        else requestAnimationFrame(() => channel.port2.postMessage(0));
      }
      pending = seq;
    }).observe(el, { childList: true, characterData: true, subtree: true });
    return true;
  };
  const tryWatch = () => {
    if (!watch()) requestAnimationFrame(tryWatch);
  };
  document.addEventListener('DOMContentLoaded', tryWatch);

  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) data.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
}
