import { describe, expect, it } from 'vitest';
import { scrollToClear } from './keepClear';

// A 390 × 844 phone: toasts across the bottom (8 px in from each side, 8 px up from the bottom edge).
const toasts = { top: 772, bottom: 836, left: 8, right: 382 };
const button = (top: number, left = 16, right = 180) => ({ top, bottom: top + 40, left, right });

describe('a toast over the focused control', () => {
  it('scrolls the control above the toasts with a gap', () => {
    expect(scrollToClear(button(790), toasts)).toBe(790 + 40 + 8 - 772);
    // Just touching the gap counts as covering it.
    expect(scrollToClear(button(728), toasts)).toBe(4);
  });

  it('leaves a control the toasts do not meet', () => {
    expect(scrollToClear(button(600), toasts)).toBe(0);
    // Beside a desktop's bottom-right toast.
    expect(scrollToClear(button(820, 40, 300), { top: 804, bottom: 868, left: 1104, right: 1424 })).toBe(0);
  });

  it('does not chase a control taller than the room above the toasts', () => {
    expect(scrollToClear({ top: 0, bottom: 800, left: 0, right: 390 }, toasts)).toBe(0);
  });
});
