import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingChanges, parsePorcelainZ } from "../../domain/attested/model/worktree-status.ts";
import { GitWorktreeInspector } from "./git-worktree-inspector.ts";

let root: string;
let repo: string;
const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" }).trim();
const inspector = new GitWorktreeInspector();

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "git-inspector-")));
  repo = join(root, "repo");
  execFileSync("git", ["init", "-q", repo]);
  git("config", "user.email", "t@example.invalid");
  git("config", "user.name", "t");
  mkdirSync(join(repo, "sub"));
  writeFileSync(join(repo, "sub", "a.txt"), "a\n");
  git("add", ".");
  git("commit", "-qm", "one");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("GitWorktreeInspector (real git)", () => {
  it("reports root, HEAD, tree and a clean status, from a subdirectory too", async () => {
    const state = await inspector.inspect(join(repo, "sub"));
    if (!state.ok) throw new Error(state.error.message);
    expect(state.value).toEqual({
      root: repo,
      dir: join(repo, "sub"),
      head: git("rev-parse", "HEAD"),
      tree: git("rev-parse", "HEAD^{tree}"),
      porcelain: "",
    });
  });

  it("lists untracked files one by one with root-relative paths, names with spaces intact", async () => {
    mkdirSync(join(repo, "sub", "new dir"));
    writeFileSync(join(repo, "sub", "new dir", "x y.txt"), "x\n");
    writeFileSync(join(repo, "sub", "a.txt"), "changed\n");
    const state = await inspector.inspect(join(repo, "sub"));
    if (!state.ok) throw new Error(state.error.message);
    const entries = parsePorcelainZ(state.value.porcelain);
    expect(entries).toEqual(
      expect.arrayContaining([
        { status: " M", path: "sub/a.txt" },
        { status: "??", path: "sub/new dir/x y.txt" },
      ]),
    );
    expect(blockingChanges(entries, { cwdPrefix: "sub/", allowedReport: "new dir/x y.txt" })).toEqual([
      { status: " M", path: "sub/a.txt" },
    ]);
    git("checkout", "--", "sub/a.txt");
    rmSync(join(repo, "sub", "new dir"), { recursive: true });
  });

  it("says when a directory is not in a repository or the repository has no commit", async () => {
    const plain = join(root, "plain");
    mkdirSync(plain);
    const none = await inspector.inspect(plain);
    expect(none.ok ? "ok" : none.error.code).toBe("not_a_git_worktree");
    const empty = join(root, "empty");
    execFileSync("git", ["init", "-q", empty]);
    const fresh = await inspector.inspect(empty);
    expect(fresh.ok ? "ok" : fresh.error.code).toBe("git_no_commit");
  });

  it("resolves symlinks in realpath and reports a missing path", async () => {
    symlinkSync(join(root, "plain"), join(root, "link"));
    expect(await inspector.realpath(join(root, "link"))).toEqual({ ok: true, value: join(root, "plain") });
    const missing = await inspector.realpath(join(root, "nope"));
    expect(missing.ok ? "ok" : missing.error.code).toBe("path_not_found");
  });
});
