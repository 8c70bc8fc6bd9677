import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeWorktreeInspectorContract } from "../../contract-tests/worktree-inspector.contract.ts";
import { GitWorktreeInspector } from "./git-worktree-inspector.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "git-inspector-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const git = (repo: string, ...args: string[]) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" });

describeWorktreeInspectorContract("GitWorktreeInspector (real git)", () => ({
  inspector: new GitWorktreeInspector(),
  async arrange(scenario) {
    const repo = join(root, `${scenario}-${made++}`);
    mkdirSync(join(repo, "sub"), { recursive: true });
    if (scenario === "not-a-repo") return repo;
    git(repo, "init", "-q");
    git(repo, "config", "user.email", "t@example.invalid");
    git(repo, "config", "user.name", "t");
    if (scenario === "no-commit") return join(repo, "sub");
    writeFileSync(join(repo, "sub", "a.txt"), "a\n");
    git(repo, "add", ".");
    git(repo, "commit", "-qm", "one");
    if (scenario === "changed") {
      mkdirSync(join(repo, "sub", "new dir"));
      writeFileSync(join(repo, "sub", "new dir", "x y.txt"), "x\n");
      writeFileSync(join(repo, "sub", "a.txt"), "changed\n");
    }
    return join(repo, "sub");
  },
  async commit(dir) {
    writeFileSync(join(dir, `more-${made++}.txt`), "more\n");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "more");
  },
  async symlink() {
    const target = join(root, `target-${made++}`);
    mkdirSync(target);
    symlinkSync(target, `${target}-link`);
    return { link: `${target}-link`, target };
  },
}));

describe("GitWorktreeInspector specifics", () => {
  it("says when git itself cannot be run", async () => {
    const result = await new GitWorktreeInspector(join(root, "no-such-git")).inspect(root);
    expect(result.ok ? "ok" : result.error.code).toBe("git_unavailable");
  });
});
