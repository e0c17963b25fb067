import { toast } from 'react-toastify';

// Toasts sit at the bottom of the screen (ToastHost.tsx). On a phone one spans the width, so it can land on the very
// control the user just pressed (a form's Save, and Test Connection beside it) for its 5 s. When a toast comes on
// screen over the focused control, the page scrolls that control clear above the toasts; the content keeps room at
// its foot for that (layout.css.ts `content`), so even the last button of a page can rise above a toast.

interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Space kept between the control and the toasts once scrolled clear. */
const GAP_PX = 8;

/** How far to scroll down so `control` ends above `toasts` (0 when they do not meet). */
export function scrollToClear(control: Rect, toasts: Rect): number {
  const meets =
    control.left < toasts.right &&
    toasts.left < control.right &&
    control.top < toasts.bottom &&
    toasts.top < control.bottom + GAP_PX;
  if (!meets) return 0;
  // A control taller than the room above the toasts is not chased (it would only scroll out at the top).
  if (control.bottom - control.top > toasts.top - GAP_PX) return 0;
  return Math.ceil(control.bottom + GAP_PX - toasts.top);
}

/** The toasts' box: the container's children, as they stand (the entrance animation moves them, not the container). */
function toastsBox(): Rect | null {
  const container = document.querySelector('.Toastify__toast-container');
  if (!container || container.childElementCount === 0) return null;
  const r = container.getBoundingClientRect();
  return r.height > 0 ? r : null;
}

function keepFocusClear(): void {
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || !focused.closest('main')) return;
  const box = toastsBox();
  if (!box) return;
  const by = scrollToClear(focused.getBoundingClientRect(), box);
  if (by > 0) window.scrollBy({ top: by, behavior: 'instant' });
}

/** Watches toasts coming on screen (and changing size) for as long as the container is mounted. */
export function watchToastsKeepClear(): () => void {
  return toast.onChange((item) => {
    if (item.status === 'removed') return;
    // After the container has laid the toast out.
    requestAnimationFrame(() => requestAnimationFrame(keepFocusClear));
  });
}
