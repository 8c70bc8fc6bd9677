import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeSurvivorProbeContract } from "../../contract-tests/survivor-probe.contract.ts";
import { claimTaskDir, releaseTaskDir } from "./live-task-dirs.ts";
import { NodeSurvivorProbe, processIdentity } from "./node-survivor-probe.ts";
import { newProcessTag } from "./process-tag.ts";

/** A detached process (its own session, like a setsid escapee), carrying `tag` when given. */
function detached(script: string, tag?: string): number {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/bin" };
  if (tag !== undefined) env.PI_BG_PROCESS_TAG = `outer:${tag}`;
  const child = spawn("/bin/sh", ["-c", script], { detached: true, stdio: "ignore", env });
  child.unref();
  if (child.pid === undefined) throw new Error("spawn failed");
  return child.pid;
}

/** Alive means present and not a zombie. */
function alive(pid: number): boolean {
  try {
    return !(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").startsWith("Z");
  } catch {
    return false;
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL"); // the shell and the sleep it started: the group it leads
  } catch {
    // already gone
  }
}

describeSurvivorProbeContract("NodeSurvivorProbe (Linux /proc)", () => {
  const started: number[] = [];
  const start = (script: string, tag?: string) => {
    const pid = detached(script, tag);
    started.push(pid);
    return pid;
  };
  return {
    probe: new NodeSurvivorProbe(),
    async layout(dirs) {
      const root = mkdtempSync(join(tmpdir(), "probe-root-"));
      for (const [name, files] of Object.entries(dirs)) {
        mkdirSync(join(root, name));
        for (const file of files) writeFileSync(join(root, name, file), "{}");
      }
      return root;
    },
    claim: claimTaskDir,
    release: releaseTaskDir,
    startHost: async () => processIdentity(start("sleep 30")),
    startTagged: async (tag, { ignoresSigterm }) =>
      start(ignoresSigterm ? "trap '' TERM; while :; do sleep 0.05; done" : "sleep 30", tag),
    kill: async (pid) => killGroup(pid),
    alive: async (pid) => alive(pid),
    newTag: newProcessTag,
    cleanUp: async () => started.splice(0).forEach(killGroup),
  };
});

describe("NodeSurvivorProbe specifics", () => {
  it("knows this process by its boot id and start time", () => {
    const probe = new NodeSurvivorProbe();
    expect(probe.self.pid).toBe(process.pid);
    expect(probe.self.startedAt).toMatch(/^[0-9a-f-]{36}\/\d+$/);
  });
});
