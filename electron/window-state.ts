/** Window size and place across restarts, kept on a display that still exists (monitors come and go). */
import type { WindowState } from './settings.js';

export type Rect = { x: number; y: number; width: number; height: number };

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;

/** Bounds to open with: the saved ones when they are on a display's work area, else centred on the primary one. */
export function restoreBounds(saved: WindowState, workAreas: Rect[]): Rect {
  const primary = workAreas[0] ?? { x: 0, y: 0, width: 1280, height: 800 };
  const width = Math.min(saved.width, primary.width);
  const height = Math.min(saved.height, primary.height);
  if (saved.x !== undefined && saved.y !== undefined) {
    const rect = { x: saved.x, y: saved.y, width: saved.width, height: saved.height };
    // at least a 100×50 strip of the title bar must be reachable on some display
    const titleBar = { x: rect.x + 50, y: rect.y, width: Math.max(1, rect.width - 100), height: 50 };
    if (workAreas.some((area) => overlaps(titleBar, area))) return rect;
  }
  return {
    x: Math.round(primary.x + (primary.width - width) / 2),
    y: Math.round(primary.y + (primary.height - height) / 2),
    width,
    height,
  };
}

/** What to save: the normal (not maximized) bounds, so un-maximizing after a restart lands somewhere sensible. */
export function captureState(normalBounds: Rect, maximized: boolean): WindowState {
  return { ...normalBounds, maximized };
}
