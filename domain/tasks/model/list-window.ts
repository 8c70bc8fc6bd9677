/** Selection and paging over a list whose items can appear and disappear while it is shown. */

/** Moves the selection by `delta`, clamped to the list; an unknown selection starts at the top. */
export function moveSelection(ids: readonly string[], selected: string | undefined, delta: number): string | undefined {
  if (ids.length === 0) return undefined;
  const at = selected === undefined ? -1 : ids.indexOf(selected);
  if (at === -1) return ids[0];
  return ids[Math.min(ids.length - 1, Math.max(0, at + delta))];
}

/** The selection if it is still listed, else the first item. */
export function keepSelection(ids: readonly string[], selected: string | undefined): string | undefined {
  return selected !== undefined && ids.includes(selected) ? selected : ids[0];
}

/** First row of the visible page: scrolls as little as possible to keep `index` in view. */
export function windowStart(count: number, index: number, pageSize: number, previousStart: number): number {
  if (count <= pageSize) return 0;
  const maxStart = count - pageSize;
  let start = Math.min(Math.max(0, previousStart), maxStart);
  if (index < start) start = index;
  else if (index >= start + pageSize) start = index - pageSize + 1;
  return Math.min(Math.max(0, start), maxStart);
}
