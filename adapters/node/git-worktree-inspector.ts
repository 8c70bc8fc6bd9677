import { execFile } from "node:child_process";
import { realpath } from "node:fs/promises";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { RealpathError, WorktreeError, WorktreeInspector, WorktreeState } from "../../ports/worktree-inspector.ts";

/**
 * The real worktree inspector: `git` run directly (no shell) with a fixed argv, plus `fs.realpath`.
 * Git's own locale, pager and optional locks are switched off so the output is the plumbing format.
 */
export class GitWorktreeInspector implements WorktreeInspector {
  constructor(private readonly git: string = "git") {}

  async inspect(dir: string): Promise<Result<WorktreeState, WorktreeError>> {
    const top = await this.run(dir, ["rev-parse", "--show-toplevel"]);
    if (!top.ok) return top;
    const head = await this.run(dir, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
    if (!head.ok)
      return err({
        code: "git_no_commit",
        message: `the Git repository at ${top.value.trim()} has no commit yet (HEAD does not resolve)`,
      });
    const tree = await this.run(dir, ["rev-parse", "--verify", "HEAD^{tree}"]);
    if (!tree.ok) return tree;
    const status = await this.run(dir, [
      "status",
      "--porcelain=v1",
      "-z",
      "--untracked-files=all",
      "--ignore-submodules=none",
    ]);
    if (!status.ok) return status;
    const [root, here] = await Promise.all([this.realpath(top.value.replace(/\n$/, "")), this.realpath(dir)]);
    if (!root.ok || !here.ok)
      return err({ code: "git_failed", message: `cannot resolve the worktree paths of ${dir}` });
    return ok({
      root: root.value,
      dir: here.value,
      head: head.value.trim(),
      tree: tree.value.trim(),
      porcelain: status.value,
    });
  }

  async realpath(path: string): Promise<Result<string, RealpathError>> {
    try {
      return ok(await realpath(path));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === "ENOENT" || code === "ENOTDIR"
        ? err({ code: "path_not_found", message: `${path} does not exist` })
        : err({ code: "path_unreadable", message: `${path} cannot be resolved (${code ?? String(error)})` });
    }
  }

  private run(dir: string, args: readonly string[]): Promise<Result<string, WorktreeError>> {
    const env = { ...process.env, LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" };
    return new Promise((resolve) => {
      execFile(
        this.git,
        ["-C", dir, ...args],
        { env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, windowsHide: true },
        (error, stdout, stderr) => {
          if (error === null) return resolve(ok(stdout));
          const errno = (error as NodeJS.ErrnoException).code;
          if (errno === "ENOENT")
            return resolve(
              err({ code: "git_unavailable", message: `git is not installed or not on PATH (${this.git})` }),
            );
          if (/not a git repository/i.test(stderr))
            return resolve(err({ code: "not_a_git_worktree", message: `${dir} is not inside a Git worktree` }));
          resolve(
            err({ code: "git_failed", message: `git ${args.join(" ")} failed: ${stderr.trim() || error.message}` }),
          );
        },
      );
    });
  }
}
