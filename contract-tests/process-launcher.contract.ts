import { describe, expect, it } from "vitest";
import type { AfterLeaderExit, RunningProcess } from "../ports/process-launcher.ts";
import { expectEventually } from "./eventually.ts";
import { collect, drain, peek, startedRun } from "./process-output.ts";
import type { ProcessLauncherSubject, ProcessScenario } from "./process-scenarios.ts";

export const COVERS_PORT = "ports/process-launcher.ts";

const SHORT_GRACE_MS = 150;
/** Long enough to look at the group between the SIGTERM and the SIGKILL. */
const MEDIUM_GRACE_MS = 1_000;
const LONG_GRACE_MS = 30_000;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const pidsAfter = (label: string, output: string): number[] =>
  [...output.matchAll(new RegExp(`^${label} (\\d+)$`, "gm"))].map((m) => Number(m[1]));

export function describeProcessLauncherContract(name: string, makeSubject: () => ProcessLauncherSubject): void {
  describe(`ProcessLauncher contract: ${name}`, () => {
    const start = (
      subject: ProcessLauncherSubject,
      scenario: ProcessScenario,
      afterLeaderExit?: AfterLeaderExit,
    ): RunningProcess => {
      const spec = subject.specFor(scenario);
      const launched = subject.launcher.launch(afterLeaderExit === undefined ? spec : { ...spec, afterLeaderExit });
      if (!launched.ok) throw new Error(`launch failed: ${launched.error.message}`);
      return launched.value;
    };

    it("delivers stdout and stderr bytes and the exit code", async () => {
      const subject = makeSubject();
      const proc = start(subject, {
        kind: "print-and-exit",
        stdout: "out: héllo\n",
        stderr: "err line\n",
        exitCode: 3,
      });
      expect(Number.isInteger(proc.pid) && proc.pid > 0).toBe(true);
      const [out, errOut, exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
      expect(text(out)).toBe("out: héllo\n");
      expect(text(errOut)).toBe("err line\n");
      expect(exit).toEqual({ code: 3, signal: null });
    });

    it("reports exit code 0 with empty output", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "print-and-exit", stdout: "", stderr: "", exitCode: 0 });
      const [out, errOut, exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
      expect([out.length, errOut.length]).toEqual([0, 0]);
      expect(exit).toEqual({ code: 0, signal: null });
    });

    it("settles exited even when nobody reads the streams", async () => {
      const proc = start(makeSubject(), {
        kind: "print-and-exit",
        stdout: "unread\n",
        stderr: "unread\n",
        exitCode: 5,
      });
      expect(await proc.exited).toEqual({ code: 5, signal: null });
    });

    it("writes the stdin bytes exactly, then closes stdin", async () => {
      const bytes = new Uint8Array(300_000).map((_, i) => (i * 7 + (i >> 9)) & 0xff);
      const proc = start(makeSubject(), { kind: "echo-stdin", stdin: bytes });
      const [out, , exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
      expect(out.length).toBe(bytes.length);
      expect(Buffer.compare(Buffer.from(out), Buffer.from(bytes))).toBe(0);
      expect(exit).toEqual({ code: 0, signal: null });
    });

    it("gives a child without stdin bytes an immediate end of input", async () => {
      const proc = start(makeSubject(), { kind: "echo-stdin" });
      const [out, , exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
      expect(out.length).toBe(0);
      expect(exit).toEqual({ code: 0, signal: null });
    });

    it("survives a child that exits without reading its stdin", async () => {
      const proc = start(makeSubject(), { kind: "ignore-stdin", stdin: new Uint8Array(4 * 1024 * 1024).fill(97) });
      const [, , exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
      expect(exit).toEqual({ code: 0, signal: null });
    });

    it("reports a death by signal as code null and the signal name", async () => {
      const proc = start(makeSubject(), { kind: "exit-by-signal" });
      const [, , exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
      expect(exit).toEqual({ code: null, signal: "SIGTERM" });
    });

    it("settles exited only when the pipes have closed, not when the leader exits", async () => {
      const proc = start(makeSubject(), { kind: "grandchild-holds-output" });
      let seen = "";
      const stdout = drain(proc.stdout, (soFar) => (seen = text(soFar)));
      const stderr = drain(proc.stderr);
      expect(await proc.exited).toEqual({ code: 0, signal: null });
      expect(seen).toBe("early\nlate\n");
      await Promise.all([stdout, stderr]);
    });

    it("fails to launch with spawn_failed, never a process", () => {
      const subject = makeSubject();
      const launched = subject.launcher.launch(subject.specFor({ kind: "cannot-start" }));
      expect(launched.ok).toBe(false);
      if (!launched.ok) {
        expect(launched.error.code).toBe("spawn_failed");
        expect(launched.error.message.length).toBeGreaterThan(0);
      }
    });

    it("stops a running group with SIGTERM within the grace", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "run-until-killed" });
      const run = await startedRun(proc);
      await proc.killGroup({ graceMs: LONG_GRACE_MS });
      expect(await run.exit).toEqual({ code: null, signal: "SIGTERM" });
      expect(await subject.groupAlive(proc.pid)).toBe(false);
    });

    it("escalates to SIGKILL when SIGTERM is ignored", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "ignore-sigterm" });
      const run = await startedRun(proc);
      await proc.killGroup({ graceMs: SHORT_GRACE_MS });
      expect(await run.exit).toEqual({ code: null, signal: "SIGKILL" });
      await expectEventually(async () => !(await subject.groupAlive(proc.pid)));
    });

    it("shares one escalation between concurrent kills", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "ignore-sigterm" });
      const run = await startedRun(proc);
      const first = proc.killGroup({ graceMs: SHORT_GRACE_MS });
      const second = proc.killGroup({ graceMs: LONG_GRACE_MS }); // joins the first: no 30 s wait
      await Promise.all([first, second]);
      expect(await run.exit).toEqual({ code: null, signal: "SIGKILL" });
    });

    it("treats killing an exited process as done", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "print-and-exit", stdout: "x", stderr: "", exitCode: 0 });
      const run = collect(proc);
      expect(await run.exit).toEqual({ code: 0, signal: null });
      await proc.killGroup({ graceMs: SHORT_GRACE_MS });
      await proc.killGroup({ graceMs: SHORT_GRACE_MS });
      expect(await subject.groupAlive(proc.pid)).toBe(false);
    });

    it("kills the grandchildren of the group too", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "grandchild-and-wait", grandchildIgnoresSigterm: false });
      const run = await startedRun(proc);
      expect(await subject.groupAlive(proc.pid)).toBe(true);
      await proc.killGroup({ graceMs: LONG_GRACE_MS });
      expect((await run.exit).signal).toBe("SIGTERM");
      await expectEventually(async () => !(await subject.groupAlive(proc.pid)));
    });

    it("SIGKILLs a group member that ignores SIGTERM after the leader died", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "grandchild-and-wait", grandchildIgnoresSigterm: true });
      const run = await startedRun(proc);
      const killed = proc.killGroup({ graceMs: MEDIUM_GRACE_MS });
      await expectEventually(async () => !(await subject.alive(proc.pid))); // the leader died of the SIGTERM
      expect(await subject.groupAlive(proc.pid)).toBe(true); // the member shrugged it off
      await killed;
      expect((await run.exit).signal).toBe("SIGTERM");
      await expectEventually(async () => !(await subject.groupAlive(proc.pid)));
    });

    /** Launches a detached child and reads the leader's output; resolves with the child's pid and whether `exited` settled. */
    const detached = async (
      subject: ProcessLauncherSubject,
      runMs: number,
      leavesGroup: boolean,
      after: AfterLeaderExit,
    ) => {
      const proc = start(subject, { kind: "detached-child", runMs, leavesGroup }, after);
      let settled = false;
      void proc.exited.then(() => (settled = true));
      const run = collect(proc);
      const [child] = pidsAfter("detached", text(await run.stdout));
      if (child === undefined) throw new Error("the detached child did not say its pid");
      return { proc, run, child, settledAtLeaderExit: settled };
    };

    it.each([false, true])(
      "waits for a detached child (holding no output) that ends within the grace; nothing is left at the end (left the group: %s)",
      async (leavesGroup) => {
        const subject = makeSubject();
        const { proc, run, child, settledAtLeaderExit } = await detached(subject, 600, leavesGroup, {
          remaining: "stop",
          graceMs: LONG_GRACE_MS,
        });
        expect(settledAtLeaderExit).toBe(false);
        expect(await subject.alive(child)).toBe(true); // the leader's output has ended; the child still runs
        const leader = await proc.leaderExit;
        expect({ code: leader.code, signal: leader.signal }).toEqual({ code: 0, signal: null });
        expect(leader.remaining.map((p) => p.pid)).toEqual([child]);
        expect(await run.exit).toEqual({ code: 0, signal: null });
        expect(await subject.alive(child)).toBe(false);
      },
    );

    it("reports a leader that leaves nothing behind with no remaining process", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "print-and-exit", stdout: "", stderr: "", exitCode: 3 });
      const run = collect(proc);
      expect(await proc.leaderExit).toEqual({ code: 3, signal: null, remaining: [] });
      expect((await run.exit).code).toBe(3);
    });

    it.each([false, true])(
      "stops a detached child that outlives the grace and names it in strays (left the group: %s)",
      async (leavesGroup) => {
        const subject = makeSubject();
        const { run, child } = await detached(subject, LONG_GRACE_MS, leavesGroup, {
          remaining: "stop",
          graceMs: SHORT_GRACE_MS,
        });
        const exit = await run.exit;
        expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
        expect(exit.strays).toEqual([child]);
        expect(await subject.alive(child)).toBe(false);
      },
    );

    it("with remaining: wait, lasts as long as the detached child (no grace applies) and it ends by itself", async () => {
      const subject = makeSubject();
      const { run, child, settledAtLeaderExit } = await detached(subject, 900, true, { remaining: "wait" });
      expect(settledAtLeaderExit).toBe(false);
      const exit = await run.exit;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(await subject.alive(child)).toBe(false);
    });

    it("with remaining: wait, a kill reaches what outlived the leader and ends the launch", async () => {
      const subject = makeSubject();
      const { proc, run, child } = await detached(subject, LONG_GRACE_MS, false, { remaining: "wait" });
      expect(await subject.alive(child)).toBe(true);
      await proc.killGroup({ graceMs: LONG_GRACE_MS });
      expect((await run.exit).code).toBe(0); // the leader had exited by itself
      expect(await subject.alive(child)).toBe(false);
      expect(await subject.groupAlive(proc.pid)).toBe(false);
    });

    it.each([false, true])(
      "kills a descendant that left the group with setsid (it ignores SIGTERM: %s)",
      async (ignoresSigterm) => {
        const subject = makeSubject();
        const proc = start(subject, { kind: "escapee-and-wait", escapeeIgnoresSigterm: ignoresSigterm });
        const run = await startedRun(proc);
        const [escapee] = pidsAfter("escapee", text(await peek(run)));
        if (escapee === undefined) throw new Error("the escapee did not say its pid");
        expect(await subject.alive(escapee)).toBe(true);
        await proc.killGroup({ graceMs: ignoresSigterm ? SHORT_GRACE_MS : LONG_GRACE_MS });
        expect((await run.exit).signal).toBe("SIGTERM");
        await expectEventually(async () => !(await subject.alive(escapee)));
        expect(await subject.groupAlive(proc.pid)).toBe(false);
      },
    );

    it("stops descendants that hold the output after the default grace and reports them as strays", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "background-holds-output" });
      const run = collect(proc);
      const exit = await run.exit;
      const holders = pidsAfter("holder", text(await run.stdout));
      expect(holders).toHaveLength(2);
      expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
      expect([...(exit.strays ?? [])].sort()).toEqual([...holders].sort());
      for (const pid of holders) await expectEventually(async () => !(await subject.alive(pid)));
    });

    it("sweeps what is left of a tree and names what it stopped", async () => {
      const subject = makeSubject();
      const proc = start(subject, { kind: "escapee-and-wait", escapeeIgnoresSigterm: false });
      const run = await startedRun(proc);
      const [escapee] = pidsAfter("escapee", text(await peek(run)));
      const stopped = await proc.sweep({ graceMs: LONG_GRACE_MS });
      expect(stopped).toContain(proc.pid);
      expect(stopped).toContain(escapee);
      expect((await run.exit).signal).toBe("SIGTERM");
      expect(await proc.sweep({ graceMs: SHORT_GRACE_MS })).toEqual([]);
    });
  });
}
