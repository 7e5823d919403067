/**
 * Running work after the browser has drawn: `afterPaint` once the next frame has painted (the
 * task after its animation frame), `whenIdle` in idle time. Low level, no imports: the boot
 * script (web/boot.ts) uses it as well as the console.
 */

/** Calls `fn` in the task after the next animation frame, that is once that frame is painted. */
export function afterPaint(fn: () => void) {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(fn, 0));
  else setTimeout(fn, 0);
}

/** Calls `fn` when the browser is idle (within a second), or in the next task where it cannot tell. */
export function whenIdle(fn: () => void) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: 1000 });
  else setTimeout(fn, 0);
}
