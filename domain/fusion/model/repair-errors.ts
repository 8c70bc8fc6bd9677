import { REPAIR_ERROR_LIMITS } from "./output-contracts.ts";

/** The validation errors the repair attempt sees: bounded, with a receipt for anything left out. */
export interface BoundedErrors {
  readonly shown: readonly string[];
  /** How many errors the check found in all. */
  readonly total: number;
  /** Errors not shown at all. */
  readonly omitted: number;
  /** Shown errors that were shortened to the per-error cap (each says so in its own text). */
  readonly shortened: number;
}

/**
 * At most 24 errors, each at most 500 characters, at most 4000 characters together. A shortened
 * error ends with an explicit marker, never a silent cut. Characters are UTF-16 code units, and a
 * cut never splits a surrogate pair.
 */
export function boundRepairErrors(errors: readonly string[], limits = REPAIR_ERROR_LIMITS): BoundedErrors {
  const shown: string[] = [];
  let used = 0;
  let shortened = 0;
  for (const error of errors) {
    if (shown.length >= limits.maxErrors) break;
    const text = shorten(error, limits.maxCharsEach);
    if (used + text.length > limits.maxCharsTotal) break;
    if (text !== error) shortened++;
    shown.push(text);
    used += text.length;
  }
  return { shown, total: errors.length, omitted: errors.length - shown.length, shortened };
}

function shorten(error: string, max: number): string {
  if (error.length <= max) return error;
  const marker = (cut: number) => ` …[${error.length - cut} more characters not shown]`;
  const splitsPair = (cut: number) => {
    const code = error.charCodeAt(cut - 1);
    return code >= 0xd800 && code <= 0xdbff;
  };
  let cut = max - marker(max).length;
  while (cut > 0 && (cut + marker(cut).length > max || splitsPair(cut))) cut--;
  return error.slice(0, cut) + marker(cut);
}
