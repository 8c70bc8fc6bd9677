import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ARTIFACT_GITIGNORE, ensureArtifactDir } from "../../domain/shared/service/artifact-dir.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";

// Run artifacts never show in the user's `git status` (issue 19): a real repository, real files.

const files = new NodeFileCommitter();

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-bg-gitignore-"));
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}
const status = (dir: string) =>
  execFileSync("git", ["-C", dir, "status", "--porcelain", "--untracked-files=all"], { encoding: "utf8" });

describe("artifact directories in a Git repository", () => {
  it("the first task, Fusion or delegate directory writes its area's .gitignore, and git status stays clean", async () => {
    const dir = repo();
    for (const area of ["tasks", "fusion", "delegate"]) {
      const runDir = join(dir, ".pi", area, "sess-1-42", "run");
      expect((await ensureArtifactDir(files, runDir)).ok).toBe(true);
      writeFileSync(join(runDir, "out.txt"), "artifact");
      expect(readFileSync(join(dir, ".pi", area, ".gitignore"), "utf8")).toBe(ARTIFACT_GITIGNORE);
    }
    expect(status(dir)).toBe("");
    expect((await ensureArtifactDir(files, join(dir, ".pi", "tasks", "sess-2-43"))).ok).toBe(true);
    expect(status(dir)).toBe("");
  });

  it("leaves a .gitignore the user wrote, and never writes through a planted link", async () => {
    const dir = repo();
    mkdirSync(join(dir, ".pi", "tasks"), { recursive: true });
    writeFileSync(join(dir, ".pi", "tasks", ".gitignore"), "mine\n");
    mkdirSync(join(dir, ".pi", "fusion"), { recursive: true });
    const outside = join(mkdtempSync(join(tmpdir(), "pi-bg-outside-")), "target");
    writeFileSync(outside, "untouched");
    symlinkSync(outside, join(dir, ".pi", "fusion", ".gitignore"));
    expect((await ensureArtifactDir(files, join(dir, ".pi", "tasks", "s-1"))).ok).toBe(true);
    expect((await ensureArtifactDir(files, join(dir, ".pi", "fusion", "s-1", "r"))).ok).toBe(true);
    expect(readFileSync(join(dir, ".pi", "tasks", ".gitignore"), "utf8")).toBe("mine\n");
    expect(readFileSync(outside, "utf8")).toBe("untouched");
  });

  it("writes nothing outside an artifact area", async () => {
    const dir = repo();
    expect((await ensureArtifactDir(files, join(dir, "elsewhere", "x"))).ok).toBe(true);
    writeFileSync(join(dir, "elsewhere", "x", "kept.txt"), "project file");
    expect(status(dir)).toBe("?? elsewhere/x/kept.txt\n");
  });
});
