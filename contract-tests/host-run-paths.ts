import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";

/** Every way tried to make the host run something: a Pi extension, a git hook, git's config, git pointed elsewhere. */
const PLANT = [
  "mkdir .pi/extensions; echo evil > .pi/extensions/x.ts",
  "echo evil > .git/hooks/pre-commit; echo '  fsmonitor = evil' >> .git/config",
  "mkdir -p other/hooks; echo ../other > .git/commondir",
  "mv .git .git-old && mkdir .git && echo '[core] fsmonitor = evil' > .git/config",
  "echo done",
].join("; ");

/**
 * A container task cannot plant code the host later runs. `run` runs a shell command as a task of the backend
 * in `dir` and returns its output, or throws the launch's refusal.
 */
export function describeHostRunPathsContract(
  run: (command: string, dir: string) => Promise<string>,
  tree: "bind" | "copy" = "bind",
): void {
  it("the command cannot plant what Pi or git later run on the host: .pi/ and .git stay as they were", async () => {
    const dir = mkdtempSync(join(tmpdir(), "host-run-"));
    mkdirSync(join(dir, ".pi"));
    mkdirSync(join(dir, ".git", "hooks"), { recursive: true });
    writeFileSync(join(dir, ".git", "config"), "[core]\n");
    expect(await run(PLANT, dir)).toContain("done\n");
    expect(readdirSync(join(dir, ".pi"))).toEqual([]);
    expect(readdirSync(join(dir, ".git")).sort()).toEqual(["config", "hooks"]);
    expect(readdirSync(join(dir, ".git", "hooks"))).toEqual([]);
    expect(readFileSync(join(dir, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(readdirSync(dir).filter((name) => name.startsWith(".git"))).toEqual([".git"]);
  });

  // A copy (remote engine) leaves .pi out whatever it is, and nothing the command does reaches the host's tree.
  it.runIf(tree === "bind")(
    "a .pi that is a symbolic link is refused before anything runs (the command could replace the link)",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "host-run-"));
      mkdirSync(join(dir, "elsewhere"));
      symlinkSync("elsewhere", join(dir, ".pi"));
      await expect(run("echo ran", dir)).rejects.toThrow(/\.pi is a symbolic link/);
    },
  );
}
