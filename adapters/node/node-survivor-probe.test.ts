import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claimTaskDir, releaseTaskDir } from "./live-task-dirs.ts";
import { NodeSurvivorProbe, processIdentity } from "./node-survivor-probe.ts";
import { newProcessTag } from "./process-tag.ts";

const probe = new NodeSurvivorProbe();
const started: number[] = [];

/** A detached process (its own session, like a setsid escapee) carrying `tag`. */
function tagged(tag: string, script = "sleep 30"): number {
  const child = spawn("/bin/sh", ["-c", script], {
    detached: true,
    stdio: "ignore",
    env: { PATH: process.env.PATH ?? "/bin", PI_BG_PROCESS_TAG: `outer:${tag}` },
  });
  child.unref();
  if (child.pid === undefined) throw new Error("spawn failed");
  started.push(child.pid);
  return child.pid;
}

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL"); // the shell and the sleep it started: the group it leads
    } catch {
      // already gone
    }
  }
});

describe("NodeSurvivorProbe", () => {
  it("lists the metadata files of every task directory, nothing else", async () => {
    const root = mkdtempSync(join(tmpdir(), "probe-root-"));
    mkdirSync(join(root, "s-1-10"));
    mkdirSync(join(root, "empty-11"));
    for (const name of ["b1.json", "b1.exit.json", "b1.output", "b1.attestation.json", "b2.json", "b2.json.123.tmp"])
      writeFileSync(join(root, "s-1-10", name), "{}");
    expect(await probe.listTaskDirs(root)).toEqual([
      { dir: join(root, "s-1-10"), metadataFiles: [join(root, "s-1-10", "b1.json"), join(root, "s-1-10", "b2.json")] },
    ]);
    expect(await probe.listTaskDirs(join(root, "absent"))).toEqual([]);
  });

  it("this process is a live host only while one of its runtimes owns the directory", async () => {
    const dir = join(tmpdir(), `probe-dir-${process.pid}`);
    expect(probe.self.startedAt).not.toBe("unavailable");
    expect(await probe.hostAlive(probe.self, dir)).toBe(false);
    claimTaskDir(dir);
    expect(await probe.hostAlive(probe.self, dir)).toBe(true);
    expect(await probe.hostAlive({ pid: probe.self.pid, startedAt: "another-boot/1" }, dir)).toBe(false);
    releaseTaskDir(dir);
    expect(await probe.hostAlive(probe.self, dir)).toBe(false);
  });

  it("another process is alive with its own stamp, dead with a stale one (pid reuse) or once it exited", async () => {
    const pid = tagged(newProcessTag());
    const identity = processIdentity(pid);
    expect(await probe.hostAlive(identity, "/unused")).toBe(true);
    expect(await probe.hostAlive({ pid, startedAt: `${identity.startedAt}0` }, "/unused")).toBe(false);
    process.kill(pid, "SIGKILL");
    await expect.poll(() => probe.hostAlive(identity, "/unused"), { timeout: 5_000 }).toBe(false);
  });

  it("finds tagged processes outside any group of ours and stops them, SIGKILL for one that ignores SIGTERM", async () => {
    const tag = newProcessTag();
    const polite = tagged(tag);
    const stubborn = tagged(tag, "trap '' TERM; while :; do sleep 0.05; done");
    const otherTag = newProcessTag();
    const bystander = tagged(otherTag);
    // The stubborn loop's own `sleep` children carry the tag too.
    await expect
      .poll(async () => probe.taggedProcesses(tag), { timeout: 5_000 })
      .toEqual(expect.arrayContaining([polite, stubborn]));
    expect(await probe.carriesTag(polite, tag)).toBe(true);
    expect(await probe.carriesTag(bystander, tag)).toBe(false);
    const stopped = await probe.stopTagged(tag, 300);
    expect(stopped).toEqual(expect.arrayContaining([polite, stubborn]));
    expect(await probe.taggedProcesses(tag)).toEqual([]);
    expect(await probe.carriesTag(bystander, otherTag)).toBe(true);
  });
});
