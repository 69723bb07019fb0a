import { describe, expect, it } from 'vitest';
import { captureState, restoreBounds } from '../../electron/window-state.js';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const external = { x: 1440, y: 0, width: 2560, height: 1415 };

describe('window state', () => {
  it('reopens where it was when that place is still on a display', () => {
    expect(
      restoreBounds({ x: 1600, y: 100, width: 1200, height: 800, maximized: false }, [laptop, external]),
    ).toEqual({
      x: 1600,
      y: 100,
      width: 1200,
      height: 800,
    });
  });

  it('a window left on a monitor that is gone comes back centred on the primary display, shrunk to fit', () => {
    expect(restoreBounds({ x: 2000, y: 100, width: 1800, height: 1000, maximized: false }, [laptop])).toEqual(
      {
        x: 0,
        y: 0,
        width: 1440,
        height: 875,
      },
    );
    expect(restoreBounds({ width: 1280, height: 820, maximized: false }, [laptop])).toEqual({
      x: 80,
      y: 28,
      width: 1280,
      height: 820,
    });
  });

  it('a title bar pushed above the screen is not reachable: recentred', () => {
    expect(
      restoreBounds({ x: 100, y: -400, width: 1000, height: 700, maximized: false }, [laptop]).y,
    ).toBeGreaterThanOrEqual(0);
  });

  it('saves the normal bounds with the maximized flag', () => {
    expect(captureState({ x: 1, y: 2, width: 1000, height: 700 }, true)).toEqual({
      x: 1,
      y: 2,
      width: 1000,
      height: 700,
      maximized: true,
    });
  });
});
