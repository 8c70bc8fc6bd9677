import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { RealpathError, WorktreeError, WorktreeInspector, WorktreeState } from "../../ports/worktree-inspector.ts";

/**
 * Scripted twin of the Git worktree inspector: `inspect` answers from a list (in order, the last one
 * repeating), the directory's own list when `at` gave it one; `realpath` answers from a map. Records
 * every call so tests can see what was looked at.
 */
export class FakeWorktreeInspector implements WorktreeInspector {
  readonly inspected: string[] = [];
  readonly realpaths = new Map<string, string>();
  #answers: Result<WorktreeState, WorktreeError>[];
  readonly #byDir = new Map<string, Result<WorktreeState, WorktreeError>[]>();

  constructor(...answers: (WorktreeState | WorktreeError)[]) {
    this.#answers = answers.map(toResult);
    if (this.#answers.length === 0) throw new Error("FakeWorktreeInspector needs at least one answer");
  }

  /** Replaces the answers still to come. */
  then(...answers: (WorktreeState | WorktreeError)[]): this {
    this.#answers = answers.map(toResult);
    return this;
  }

  /** Answers for `dir` alone (replacing any it had), in order, the last one repeating. */
  at(dir: string, ...answers: (WorktreeState | WorktreeError)[]): this {
    if (answers.length === 0) throw new Error("FakeWorktreeInspector.at needs at least one answer");
    this.#byDir.set(dir, answers.map(toResult));
    return this;
  }

  async inspect(dir: string): Promise<Result<WorktreeState, WorktreeError>> {
    this.inspected.push(dir);
    const answers = this.#byDir.get(dir) ?? this.#answers;
    const answer = answers.length > 1 ? answers.shift() : answers[0];
    if (answer === undefined) throw new Error("FakeWorktreeInspector ran out of answers");
    return answer;
  }

  async realpath(path: string): Promise<Result<string, RealpathError>> {
    const real = this.realpaths.get(path);
    return real === undefined ? err({ code: "path_not_found", message: `${path} does not exist` }) : ok(real);
  }
}

function toResult(answer: WorktreeState | WorktreeError): Result<WorktreeState, WorktreeError> {
  return "code" in answer ? err(answer) : ok(answer);
}

/** A clean worktree at `dir` (its own repository root) on the given commit. */
export function cleanWorktree(dir: string, head = "a".repeat(40), tree = "b".repeat(40)): WorktreeState {
  return { root: dir, dir, head, tree, porcelain: "" };
}
