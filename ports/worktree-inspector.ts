import type { Result, TypedError } from "../domain/shared/model/result.ts";

/** A Git worktree as an attested run sees it at start and at finish. */
export interface WorktreeState {
  /** Realpath of the repository's top level. */
  readonly root: string;
  /** Realpath of the inspected directory. */
  readonly dir: string;
  /** `git rev-parse HEAD`. */
  readonly head: string;
  /** `git rev-parse HEAD^{tree}`. */
  readonly tree: string;
  /** `git status --porcelain=v1 -z --untracked-files=all` as printed (paths relative to `root`). */
  readonly porcelain: string;
}

export type WorktreeError = TypedError<"git_unavailable" | "not_a_git_worktree" | "git_no_commit" | "git_failed">;
export type RealpathError = TypedError<"path_not_found" | "path_unreadable">;

export interface WorktreeInspector {
  inspect(dir: string): Promise<Result<WorktreeState, WorktreeError>>;
  /** The realpath of an existing path (symlinks resolved). */
  realpath(path: string): Promise<Result<string, RealpathError>>;
}
