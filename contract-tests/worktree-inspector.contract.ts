import { describe, expect, it } from "vitest";
import { parsePorcelainZ } from "../domain/attested/model/worktree-status.ts";
import type { WorktreeError, WorktreeInspector, WorktreeState } from "../ports/worktree-inspector.ts";
import type { Result } from "../domain/shared/model/result.ts";

export const COVERS_PORT = "ports/worktree-inspector.ts";

/**
 * "clean": a repository with one commit holding `sub/a.txt`; "changed": the same with `sub/a.txt` edited
 * and `sub/new dir/x y.txt` untracked; "no-commit": a repository without a commit; "not-a-repo": a plain
 * directory. Repositories are inspected from their subdirectory `sub`.
 */
export type WorktreeScenario = "clean" | "changed" | "no-commit" | "not-a-repo";

export interface WorktreeInspectorSubject {
  readonly inspector: WorktreeInspector;
  /** A fresh directory in the scenario's state: the directory to inspect. */
  arrange(scenario: WorktreeScenario): Promise<string>;
  /** Commits one new file in the repository holding `dir`. */
  commit(dir: string): Promise<void>;
  /** A symlink to an existing directory, and that directory's realpath. */
  symlink(): Promise<{ readonly link: string; readonly target: string }>;
}

const OBJECT_ID = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

function state(result: Result<WorktreeState, WorktreeError>): WorktreeState {
  if (!result.ok) throw new Error(`unexpected ${result.error.code}: ${result.error.message}`);
  return result.value;
}

export function describeWorktreeInspectorContract(name: string, makeSubject: () => WorktreeInspectorSubject): void {
  describe(`WorktreeInspector contract: ${name}`, () => {
    it("reports root, directory, HEAD, tree and an empty status for a clean worktree", async () => {
      const subject = makeSubject();
      const seen = state(await subject.inspector.inspect(await subject.arrange("clean")));
      expect(seen.dir).toBe(`${seen.root}/sub`);
      expect(seen.head).toMatch(OBJECT_ID);
      expect(seen.tree).toMatch(OBJECT_ID);
      expect(seen.tree).not.toBe(seen.head);
      expect(seen.porcelain).toBe("");
    });

    it("gives the same state for a worktree nothing changed, and a new HEAD and tree after a commit", async () => {
      const subject = makeSubject();
      const dir = await subject.arrange("clean");
      const first = state(await subject.inspector.inspect(dir));
      expect(state(await subject.inspector.inspect(dir))).toEqual(first);
      await subject.commit(dir);
      const after = state(await subject.inspector.inspect(dir));
      expect([after.root, after.dir, after.porcelain]).toEqual([first.root, first.dir, ""]);
      expect(after.head).not.toBe(first.head);
      expect(after.tree).not.toBe(first.tree);
    });

    it("lists changed and untracked files one by one, root-relative, names with spaces intact", async () => {
      const subject = makeSubject();
      const seen = state(await subject.inspector.inspect(await subject.arrange("changed")));
      expect(parsePorcelainZ(seen.porcelain)).toEqual(
        expect.arrayContaining([
          { status: " M", path: "sub/a.txt" },
          { status: "??", path: "sub/new dir/x y.txt" },
        ]),
      );
    });

    it("says which directory is no worktree and which repository has no commit, whatever the order", async () => {
      const subject = makeSubject();
      const [plain, fresh, clean] = [
        await subject.arrange("not-a-repo"),
        await subject.arrange("no-commit"),
        await subject.arrange("clean"),
      ];
      const code = async (dir: string) => {
        const result = await subject.inspector.inspect(dir);
        return result.ok ? "ok" : result.error.code;
      };
      expect([await code(clean), await code(plain), await code(fresh), await code(clean)]).toEqual([
        "ok",
        "not_a_git_worktree",
        "git_no_commit",
        "ok",
      ]);
    });

    it("resolves a symlink to its target and reports a missing path", async () => {
      const subject = makeSubject();
      const { link, target } = await subject.symlink();
      expect(await subject.inspector.realpath(link)).toEqual({ ok: true, value: target });
      expect(await subject.inspector.realpath(target)).toEqual({ ok: true, value: target });
      const missing = await subject.inspector.realpath(`${target}/no-such-entry`);
      expect(missing.ok ? "ok" : missing.error.code).toBe("path_not_found");
    });
  });
}
