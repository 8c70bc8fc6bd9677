import type { FileError } from "../../ports/file-committer.ts";
import { errnoCode } from "./errno.ts";

/** ENOENT and EEXIST have their own codes; every other OS failure is io_failed with its osCode. */
export function fileError(path: string, error: unknown): FileError {
  const osCode = errnoCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (osCode === "ENOENT")
    return { code: "file_not_found", message: `${path} (or a parent directory) does not exist`, path, osCode };
  if (osCode === "EEXIST") return { code: "file_exists", message: `${path} already exists`, path, osCode };
  return osCode === undefined
    ? { code: "io_failed", message: `${path}: ${detail}`, path }
    : { code: "io_failed", message: `${path}: ${detail}`, path, osCode };
}

/**
 * An exact range or an error, never a clamped one. A fractional or unsafe number is a caller bug and
 * throws; a negative start or a range past the end is range_out_of_bounds.
 */
export function checkRange(path: string, offset: number, length: number, size: number): FileError | undefined {
  assertWholeNumbers(offset, length);
  if (offset < 0 || length < 0 || offset + length > size) {
    return {
      code: "range_out_of_bounds",
      message: `${path}: bytes ${offset}..${offset + length} are outside 0..${size}`,
      path,
    };
  }
  return undefined;
}

export function assertWholeNumbers(offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length))
    throw new RangeError(`bad range ${offset}+${length}`);
}
