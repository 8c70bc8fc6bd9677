/**
 * Which lines of a task's output tail are visible. Following shows the newest lines; scrolling up
 * pauses (the caller freezes its buffer) and reaching the bottom again resumes following.
 */
export interface TailViewport {
  readonly following: boolean;
  /** First visible line while paused (ignored while following). */
  readonly top: number;
}

export const FOLLOWING: TailViewport = { following: true, top: 0 };

export interface LineRange {
  /** Inclusive start, exclusive end (0-based). */
  readonly start: number;
  readonly end: number;
}

const bottomTop = (total: number, height: number): number => Math.max(0, total - height);

export function visibleRange(viewport: TailViewport, total: number, height: number): LineRange {
  const start = viewport.following
    ? bottomTop(total, height)
    : Math.min(Math.max(0, viewport.top), bottomTop(total, height));
  return { start, end: Math.min(total, start + height) };
}

/** Moves by `delta` lines (negative is up). Reaching the bottom resumes following. */
export function scrollBy(viewport: TailViewport, delta: number, total: number, height: number): TailViewport {
  const { start } = visibleRange(viewport, total, height);
  const top = Math.min(Math.max(0, start + delta), bottomTop(total, height));
  if (top >= bottomTop(total, height)) return FOLLOWING;
  return { following: false, top };
}

export function scrollToTop(total: number, height: number): TailViewport {
  return total <= height ? FOLLOWING : { following: false, top: 0 };
}

/** "lines X–Y of N" (1-based, inclusive) for a paused view; "no output yet" when empty. */
export function rangeLabel(viewport: TailViewport, total: number, height: number): string {
  if (total === 0) return "no output yet";
  const { start, end } = visibleRange(viewport, total, height);
  return `lines ${start + 1}–${end} of ${total}`;
}
