// Whether this browser can draw the charts: lightweight-charts needs a 2D canvas context, which is missing where canvas
// is disabled (some hardened or privacy modes) or not implemented (jsdom). Without one the cards keep their text
// summary, which says the same in words.
let supported: boolean | undefined;

export function canDrawCharts(): boolean {
  if (supported === undefined) {
    try {
      // jsdom's canvas has getContext but no implementation behind it; a real browser's prototype is native code.
      const proto = typeof HTMLCanvasElement === 'undefined' ? undefined : HTMLCanvasElement.prototype;
      supported =
        proto !== undefined &&
        /\[native code\]/.test(Function.prototype.toString.call(proto.getContext)) &&
        document.createElement('canvas').getContext('2d') !== null;
    } catch {
      supported = false;
    }
  }
  return supported;
}
