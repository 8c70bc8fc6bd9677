import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  eventually,
  killMarked,
  markedProcesses,
  ownZombies,
  realRuntime,
  runRequest,
} from "./real-runtime.test-support.ts";

const dir = mkdtempSync(join(tmpdir(), "escapees-"));
const marks: string[] = [];
afterAll(() => {
  for (const mark of marks) killMarked(mark);
  rmSync(dir, { recursive: true, force: true });
});

const ESCAPING_TREE = "setsid sleep 300 & nohup sleep 300 >/dev/null 2>&1 & (sleep 300 &) ; sleep 300";

describe("the real runtime leaves nothing running", () => {
  it("bg_kill stops a tree whose members escaped with setsid, nohup and a double fork", async () => {
    const { runtime, mark } = realRuntime(join(dir, "kill"));
    marks.push(mark);
    const started = await runtime.start(runRequest(ESCAPING_TREE));
    if (!started.ok) throw new Error(started.error.message);
    // sh plus four sleeps; one of them left the group, one left its parent.
    await eventually(() => markedProcesses(mark).filter((p) => p.comm === "sleep").length === 4);
    const killed = await runtime.kill(started.value.id);
    expect(killed.ok && killed.value).toMatchObject({ status: "killed", killKind: "user" });
    await eventually(() => markedProcesses(mark).length === 0);
    expect(ownZombies()).toEqual([]);
  });

  it("a finished command's background holders of the output are stopped after the grace and reported", async () => {
    const { runtime, mark, delivered } = realRuntime(join(dir, "drain"), {
      launcher: { strayKillGraceMs: 1_000 },
      config: { shellExitGraceMs: 300 },
    });
    marks.push(mark);
    const started = await runtime.start(
      runRequest("echo begin; sleep 300 & setsid sh -c 'trap \"\" TERM; exec sleep 300' & (sleep 300 &); echo end"),
    );
    if (!started.ok) throw new Error(started.error.message);
    const done = await runtime.waitForTerminal(started.value.id);
    expect(done.ok && done.value).toMatchObject({ status: "completed", exitCode: 0, strays: 3 });
    expect(done.ok && done.value.error).toMatch(/^3 descendant processes outlived the command and were stopped/);
    expect(markedProcesses(mark)).toEqual([]);
    expect(delivered.map((n) => n.snapshot.status)).toEqual(["completed"]);
    const log = await runtime.readLog(started.value.id, { maxBytes: 1000, tail: true });
    expect(log.ok && log.value.text).toBe("begin\nend\n");
    expect(ownZombies()).toEqual([]);
  });

  it("a timeout stops the escapees as well", async () => {
    const { runtime, mark } = realRuntime(join(dir, "timeout"));
    marks.push(mark);
    const started = await runtime.start(runRequest(ESCAPING_TREE, { timeoutSeconds: 1 }));
    if (!started.ok) throw new Error(started.error.message);
    const done = await runtime.waitForTerminal(started.value.id);
    expect(done.ok && done.value).toMatchObject({ status: "failed", killKind: "timeout" });
    await eventually(() => markedProcesses(mark).length === 0);
  });

  it("a daemon a finished command left behind keeps the task running, listed, until the grace stops it", async () => {
    const { runtime, mark, delivered } = realRuntime(join(dir, "daemon"), { config: { shellExitGraceMs: 600 } });
    marks.push(mark);
    const started = await runtime.start(runRequest("nohup sleep 300 >/dev/null 2>&1 & echo started"));
    if (!started.ok) throw new Error(started.error.message);
    const id = started.value.id;
    await eventually(() => {
      const task = runtime.find(id);
      return task.ok && task.value.shellExit !== undefined;
    });
    const running = runtime.find(id);
    expect(running.ok && running.value).toMatchObject({ status: "running", shellExit: { code: 0, signal: null } });
    expect(running.ok && running.value.remaining?.map((p) => p.command)).toEqual(["sleep 300"]);
    expect(delivered).toEqual([]);
    const done = await runtime.waitForTerminal(id);
    expect(done.ok && done.value).toMatchObject({ status: "completed", exitCode: 0, strays: 1, descendants: 1 });
    expect(markedProcesses(mark)).toEqual([]);
    expect(delivered.map((n) => n.snapshot.status)).toEqual(["completed"]);
  });

  it('onShellExit "wait": the task outlasts the grace while its detached child runs, and ends when the child does', async () => {
    const { runtime, mark } = realRuntime(join(dir, "wait"), { config: { shellExitGraceMs: 100 } });
    marks.push(mark);
    const started = await runtime.start(runRequest("sleep 1 >/dev/null 2>&1 & echo started", { onShellExit: "wait" }));
    if (!started.ok) throw new Error(started.error.message);
    const id = started.value.id;
    await eventually(() => {
      const task = runtime.find(id);
      return task.ok && task.value.shellExit !== undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 400)); // four graces later
    expect(runtime.find(id)).toMatchObject({ ok: true, value: { status: "running" } });
    const done = await runtime.waitForTerminal(id);
    expect(done.ok && done.value).toMatchObject({ status: "completed", exitCode: 0, descendants: 1 });
    expect(done.ok && done.value.strays).toBeUndefined();
    expect(markedProcesses(mark)).toEqual([]);
  });

  it("shutdown stops running trees and their escapees", async () => {
    const { runtime, mark } = realRuntime(join(dir, "shutdown"));
    marks.push(mark);
    for (let i = 0; i < 3; i++) {
      const started = await runtime.start(runRequest(ESCAPING_TREE));
      if (!started.ok) throw new Error(started.error.message);
    }
    await eventually(() => markedProcesses(mark).filter((p) => p.comm === "sleep").length === 12);
    await runtime.shutdown();
    expect(runtime.list().map((t) => t.status)).toEqual(["killed", "killed", "killed"]);
    await eventually(() => markedProcesses(mark).length === 0);
    expect(ownZombies()).toEqual([]);
  });
});
