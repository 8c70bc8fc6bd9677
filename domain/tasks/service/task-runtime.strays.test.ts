import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher, type FakeScript } from "../../../adapters/fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { ok } from "../../shared/model/result.ts";
import type { TaskNotification } from "../model/notification.ts";
import { normalizeRunArguments } from "../model/run-request.ts";
import { TaskRuntime } from "./task-runtime.ts";

/** The grace the task's other processes get after its shell exited. */
const DRAIN_MS = 2_000;
const STRAY_GRACE_MS = 3_000;

function setup(script: FakeScript) {
  const clock = new FakeClock();
  const launcher = new FakeProcessLauncher({
    clock,
    script: () => script,
    drainGraceMs: DRAIN_MS,
    strayKillGraceMs: STRAY_GRACE_MS,
  });
  const files = new InMemoryFileCommitter();
  const delivered: TaskNotification[] = [];
  const warnings: string[] = [];
  const runtime = new TaskRuntime(
    {
      launcher,
      files,
      clock,
      random: new SeededRandomSource(3),
      notifier: { deliver: async (n) => (delivered.push(n), ok(undefined)) },
      warn: (m) => warnings.push(m),
    },
    {
      cwd: "/w",
      taskDir: "/w/t",
      displayDir: "t",
      env: {},
      outputCapBytes: 1 << 20,
      killGraceMs: 3_000,
      shellExitGraceMs: DRAIN_MS,
      retainTasks: 100,
    },
  );
  return { clock, launcher, files, delivered, warnings, runtime };
}

async function start(runtime: TaskRuntime, extra: Record<string, unknown> = {}) {
  const request = normalizeRunArguments({ command: "cmd", isAgent: false, ...extra });
  if (!request.ok) throw new Error(request.error.message);
  const started = await runtime.start(request.value);
  if (!started.ok) throw new Error(started.error.message);
  return started.value;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("TaskRuntime and descendants that outlive the command", () => {
  it("stops background holders of the output after the drain grace and says so in the terminal state", async () => {
    const { runtime, clock, launcher, delivered, files } = setup({
      stdout: ["hi\n"],
      exit: { code: 0 },
      grandchild: { holdsPipes: true },
      escapee: { holdsPipes: true },
    });
    const task = await start(runtime);
    await settle();
    clock.advance(DRAIN_MS - 1);
    await settle();
    expect(runtime.find(task.id)).toMatchObject({ ok: true, value: { status: "running" } });
    clock.advance(1);
    const done = await runtime.waitForTerminal(task.id);
    expect(done.ok && done.value).toMatchObject({ status: "completed", exitCode: 0, strays: 2 });
    expect(done.ok && done.value.error).toMatch(/^2 descendant processes outlived the command and were stopped/);
    expect(launcher.running()).toEqual([]);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.content).toContain("outlived the command");
    const saved = JSON.parse(Buffer.from(files.contents(`/w/t/${task.id}.json`) ?? []).toString()) as {
      strays?: number;
    };
    expect(saved.strays).toBe(2);
  });

  it("a holder that shrugs off SIGTERM is SIGKILLed after the stray grace; a failed command keeps its own error first", async () => {
    const { runtime, clock, launcher } = setup({
      exit: { code: 4 },
      grandchild: { holdsPipes: true, ignoresSigterm: true },
    });
    const task = await start(runtime);
    await settle();
    clock.advance(DRAIN_MS);
    await settle();
    expect(runtime.find(task.id)).toMatchObject({ ok: true, value: { status: "running" } });
    clock.advance(STRAY_GRACE_MS);
    const done = await runtime.waitForTerminal(task.id);
    expect(done.ok && done.value).toMatchObject({ status: "failed", exitCode: 4, strays: 1 });
    expect(done.ok && done.value.error).toMatch(
      /^Exited with code 4; 1 descendant process outlived the command and was stopped/,
    );
    expect(launcher.processes[0]?.signals).toEqual(["SIGTERM", "SIGKILL"]);
  });

  it("a holder that lets go within the grace is no stray", async () => {
    const { runtime, clock } = setup({
      exit: { code: 0 },
      grandchild: { stdout: ["late\n"], exitAfterMs: DRAIN_MS - 1 },
    });
    const task = await start(runtime);
    await settle();
    clock.advance(DRAIN_MS - 1);
    const done = await runtime.waitForTerminal(task.id);
    expect(done.ok && done.value).toMatchObject({ status: "completed" });
    expect(done.ok && (done.value.strays ?? done.value.error)).toBeUndefined();
  });

  it("a detached child (its own stdio) keeps the task running after the shell exits, listed, until the grace stops it", async () => {
    const { runtime, launcher, clock, delivered } = setup({ exit: { code: 0 }, escapee: {} });
    const task = await start(runtime);
    await settle();
    const daemon = launcher.processes[0]?.pids.escapee ?? 0;
    const running = runtime.find(task.id);
    expect(running.ok && running.value).toMatchObject({
      status: "running",
      shellExit: { code: 0, signal: null },
      remaining: [{ pid: daemon }],
    });
    expect(delivered).toEqual([]);
    clock.advance(DRAIN_MS);
    const done = await runtime.waitForTerminal(task.id);
    expect(done.ok && done.value).toMatchObject({ status: "completed", exitCode: 0, strays: 1, descendants: 1 });
    expect(done.ok && done.value.remaining).toBeUndefined();
    expect(launcher.alive(daemon)).toBe(false);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.content).toContain(
      "<process-tree>the shell exited (exit 0) while 1 process it started still ran: it was stopped",
    );
  });

  it('onShellExit "wait": the task lasts as long as the detached child, past the grace, and it ends by itself', async () => {
    const { runtime, launcher, clock, delivered } = setup({
      exit: { code: 0 },
      escapee: { exitAfterMs: 10 * DRAIN_MS },
    });
    const task = await start(runtime, { onShellExit: "wait" });
    await settle();
    clock.advance(5 * DRAIN_MS);
    await settle();
    expect(runtime.find(task.id)).toMatchObject({ ok: true, value: { status: "running", onShellExit: "wait" } });
    clock.advance(5 * DRAIN_MS);
    const done = await runtime.waitForTerminal(task.id);
    expect(done.ok && done.value).toMatchObject({ status: "completed", exitCode: 0, descendants: 1 });
    expect(done.ok && done.value.strays).toBeUndefined();
    expect(launcher.running()).toEqual([]);
    expect(delivered[0]?.content).toContain("it ended by itself");
  });

  it("bg_kill reaches a descendant that left the process group", async () => {
    const { runtime, launcher } = setup({ escapee: {} });
    const task = await start(runtime);
    const escapee = launcher.processes[0]?.pids.escapee ?? 0;
    expect(launcher.alive(escapee)).toBe(true);
    const killed = await runtime.kill(task.id);
    expect(killed.ok && killed.value).toMatchObject({ status: "killed", killKind: "user" });
    expect(launcher.alive(escapee)).toBe(false);
    expect(launcher.running()).toEqual([]);
  });
});
