import type { Result, TypedError } from "../domain/shared/model/result.ts";

/** One entry of a scanned run directory, as lstat saw it (never through a link). */
export interface TreeEntry {
  /** Relative to the scanned directory, forward slashes; "" is the directory itself. */
  readonly path: string;
  readonly kind: "file" | "dir";
  readonly mtimeMs: number;
  readonly bytes: number;
  /** Device and inode: removal checks that the path still names this very entry. */
  readonly identity: string;
}

/** Why a directory is left as it is: something in it is not the package's own, or reading it failed. */
export type TreeRefusalCode =
  | "symlink"
  | "special_file"
  | "outside_area"
  | "too_many_entries"
  | "too_deep"
  | "unreadable";

export interface TreeRefusal extends TypedError<TreeRefusalCode> {
  /** The entry that caused the refusal, relative to the area. */
  readonly path: string;
}

/** A whole run directory, every entry a regular file or a real directory inside the area. */
export interface TreeScan {
  /** Deepest entries last; the directory itself first. */
  readonly entries: readonly TreeEntry[];
  readonly bytes: number;
  /** The newest mtime of any entry (the directory itself included). */
  readonly newestMtimeMs: number;
}

/** A name directly in an area directory (`.pi/tasks`, …) and what lstat says it is. */
export interface AreaEntry {
  readonly name: string;
  readonly kind: "dir" | "symlink" | "file" | "other";
  /** The entry's own mtime: candidates are examined oldest first. */
  readonly mtimeMs: number;
}

export interface RemoveFailure extends TypedError<"changed_since_scan" | "remove_failed"> {
  readonly path: string;
}

/**
 * The filesystem view pruning needs. It never follows a symlink: every entry is lstat'ed, only regular files
 * and real directories are scanned or removed, and an area whose real path is not `<realpath(cwd)>/.pi/<area>`
 * is refused as a whole.
 */
export interface ArtifactTree {
  /** The entries directly in the area; refusal when the area or `.pi` is a link or not a directory. */
  listArea(area: string): Promise<Result<readonly AreaEntry[], TreeRefusal>>;
  /** Scans `<area>/<name>` within the bounds; a symlink, FIFO, socket or device anywhere refuses it. */
  scan(area: string, name: string): Promise<Result<TreeScan, TreeRefusal>>;
  /**
   * Removes exactly what the scan found, deepest first; each entry is lstat'ed again and must still be the
   * same file or directory (device and inode), otherwise removal stops there.
   */
  remove(area: string, name: string, scan: TreeScan): Promise<Result<void, RemoveFailure>>;
  /** Removes one regular file directly under `<area>/<dir>`; a missing file is no error. */
  removeFile(area: string, dir: string, name: string): Promise<Result<void, RemoveFailure>>;
}
