import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";

const PLANT =
  "mkdir .pi/extensions; echo evil > .pi/extensions/x.ts; echo evil > .git/hooks/pre-commit; echo '  fsmonitor = evil' >> .git/config; echo work > result.txt; echo done";

/**
 * A container task cannot plant code the host later runs: an extension under `.pi/`, a git hook, a program named
 * in `.git/config`. `run` runs a shell command as a task of the backend in `dir` and returns its output.
 */
export function describeHostRunPathsContract(run: (command: string, dir: string) => Promise<string>): void {
  it("the command cannot plant what Pi or git later run on the host: .pi/, .git/hooks and .git/config", async () => {
    const dir = mkdtempSync(join(tmpdir(), "host-run-"));
    mkdirSync(join(dir, ".pi"));
    mkdirSync(join(dir, ".git", "hooks"), { recursive: true });
    writeFileSync(join(dir, ".git", "config"), "[core]\n");
    expect(await run(PLANT, dir)).toContain("done\n");
    expect(readdirSync(join(dir, ".pi"))).toEqual([]);
    expect(readdirSync(join(dir, ".git", "hooks"))).toEqual([]);
    expect(readFileSync(join(dir, ".git", "config"), "utf8")).toBe("[core]\n");
  });
}
