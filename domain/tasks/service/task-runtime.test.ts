import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { FakeProcessLauncher, type FakeScript } from "../../../adapters/fake/fake-process-launcher.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { err, ok } from "../../shared/model/result.ts";
import type { TaskNotification } from "../model/notification.ts";
import { normalizeRunArguments, type RunRequest } from "../model/run-request.ts";
import { TaskRuntime } from "./task-runtime.ts";

function request(overrides: Record<string, unknown> = {}): RunRequest {
  const r = normalizeRunArguments({ name: "t", command: "cmd", isAgent: false, ...overrides });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function setup(
  script: FakeScript = { exit: { code: 0 } },
  options: { failNotify?: boolean; retainTasks?: number } = {},
) {
  const clock = new FakeClock();
  const launcher = new FakeProcessLauncher({ clock, script: () => script });
  const files = new InMemoryFileCommitter();
  const delivered: TaskNotification[] = [];
  const warnings: string[] = [];
  const runtime = new TaskRuntime(
    {
      launcher,
      files,
      clock,
      random: new SeededRandomSource(7),
      notifier: {
        deliver: async (n) =>
          options.failNotify
            ? err({ code: "notify_failed", message: "host gone" })
            : (delivered.push(n), ok(undefined)),
      },
      warn: (m) => warnings.push(m),
    },
    {
      cwd: "/w",
      taskDir: "/w/.pi/tasks/s-1",
      displayDir: ".pi/tasks/s-1",
      env: {},
      outputCapBytes: 1 << 20,
      killGraceMs: 3000,
      retainTasks: options.retainTasks ?? 100,
    },
  );
  return { clock, launcher, files, delivered, warnings, runtime };
}

async function startOk(runtime: TaskRuntime, r: RunRequest = request()) {
  const started = await runtime.start(r);
  if (!started.ok) throw new Error(started.error.message);
  return started.value;
}

const meta = (files: InMemoryFileCommitter, id: string) =>
  JSON.parse(Buffer.from(files.contents(`/w/.pi/tasks/s-1/${id}.json`) ?? new Uint8Array()).toString());

describe("TaskRuntime", () => {
  it("keeps the newest finished tasks up to the retained number, and every running task", async () => {
    const { runtime, launcher, clock } = setup({ exit: { code: 0 } }, { retainTasks: 2 });
    launcher.on("long", {});
    const running = await startOk(runtime, request({ command: "long" }));
    const ended: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(1_000); // distinct start times: "newest" is well defined
      const task = await startOk(runtime);
      expect((await runtime.waitForTerminal(task.id)).ok).toBe(true);
      ended.push(task.id);
      expect(runtime.list().filter((t) => t.status !== "running")).toHaveLength(Math.min(ended.length, 2));
    }
    expect(runtime.list().map((t) => t.id)).toEqual([ended[3], ended[2], running.id]);
    expect(runtime.find(ended[0] ?? "")).toMatchObject({ ok: false });
  });

  it("completes, writes output and durable metadata, and notifies exactly once", async () => {
    const { runtime, files, delivered } = setup({ stdout: ["hello\n"], stderr: ["warn\n"], exit: { code: 0 } });
    const task = await startOk(runtime);
    const done = await runtime.waitForTerminal(task.id);
    expect(done.ok && done.value).toMatchObject({ status: "completed", exitCode: 0, notified: true, bytesWritten: 11 });
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.triggerTurn).toBe(true);
    expect(delivered[0]?.content).toContain("hello");
    expect(meta(files, task.id)).toMatchObject({ status: "completed", notified: true });
    expect(Buffer.from(files.contents(`/w/.pi/tasks/s-1/${task.id}.output`) ?? []).toString()).toMatch(
      /^(hello\nwarn\n|warn\nhello\n)$/,
    );
  });

  it("a non-zero exit fails with the code, a signal death names the signal", async () => {
    const failing = setup({ exit: { code: 2 } });
    const t1 = await startOk(failing.runtime);
    expect((await failing.runtime.waitForTerminal(t1.id)).ok).toBe(true);
    expect(failing.runtime.find(t1.id)).toMatchObject({
      ok: true,
      value: { status: "failed", exitCode: 2, error: "Exited with code 2" },
    });
    const signalled = setup({ exit: { signal: "SIGSEGV" } });
    const t2 = await startOk(signalled.runtime);
    await signalled.runtime.waitForTerminal(t2.id);
    expect(signalled.runtime.find(t2.id)).toMatchObject({
      ok: true,
      value: { status: "failed", signal: "SIGSEGV", error: "Terminated by signal SIGSEGV" },
    });
  });

  it("the timeout stops the group and fails the task naming the limit", async () => {
    const { runtime, clock, launcher } = setup({});
    const task = await startOk(runtime, request({ timeoutSeconds: 5 }));
    clock.advance(4999);
    expect(runtime.find(task.id)).toMatchObject({ ok: true, value: { status: "running" } });
    clock.advance(1);
    const done = await runtime.waitForTerminal(task.id);
    expect(done.ok && done.value).toMatchObject({ status: "failed", killKind: "timeout" });
    expect(done.ok && done.value.error).toMatch(/Timed out after 5 s/);
    expect(launcher.running()).toEqual([]);
  });

  it("kill escalates to SIGKILL after the grace for a process that ignores SIGTERM", async () => {
    const { runtime, clock, launcher } = setup({ ignoresSigterm: true });
    const task = await startOk(runtime);
    const killing = runtime.kill(task.id);
    await Promise.resolve();
    clock.advance(3000);
    const killed = await killing;
    expect(killed.ok && killed.value).toMatchObject({ status: "killed", killKind: "user" });
    expect(launcher.processes[0]?.signals).toEqual(["SIGTERM", "SIGKILL"]);
    expect(await runtime.kill(task.id)).toMatchObject({ ok: false, error: { code: "task_not_running" } });
  });

  it("notifyOnCompletion false sends nothing; triggerOnCompletion false sends without a turn", async () => {
    const quiet = setup();
    const t1 = await startOk(quiet.runtime, request({ notifyOnCompletion: false }));
    await quiet.runtime.waitForTerminal(t1.id);
    expect(quiet.delivered).toEqual([]);
    const noTurn = setup();
    const t2 = await startOk(noTurn.runtime, request({ triggerOnCompletion: false }));
    await noTurn.runtime.waitForTerminal(t2.id);
    expect(noTurn.delivered.map((n) => n.triggerTurn)).toEqual([false]);
  });

  it("shutdown kills running tasks without notifications and refuses new ones", async () => {
    const { runtime, delivered, launcher } = setup({});
    const task = await startOk(runtime);
    await runtime.shutdown();
    expect(runtime.find(task.id)).toMatchObject({ ok: true, value: { status: "killed", killKind: "shutdown" } });
    expect(delivered).toEqual([]);
    expect(launcher.running()).toEqual([]);
    expect(await runtime.start(request())).toMatchObject({ ok: false, error: { code: "runtime_shutting_down" } });
    expect(launcher.launches).toHaveLength(1);
  });

  it("a spawn failure becomes a failed task with the reason, notified like any other end", async () => {
    const { runtime, delivered } = setup({ spawnError: "ENOENT: no such shell" });
    const task = await startOk(runtime);
    const done = await runtime.waitForTerminal(task.id);
    expect(done.ok && done.value).toMatchObject({ status: "failed" });
    expect(done.ok && done.value.error).toContain("ENOENT: no such shell");
    expect(delivered).toHaveLength(1);
  });

  it("an unwritable task directory is a typed error and spawns nothing", async () => {
    const { runtime, files, launcher } = setup();
    files.failNext("ensureDir", "EACCES");
    expect(await runtime.start(request())).toMatchObject({ ok: false, error: { code: "task_dir_unwritable" } });
    expect(launcher.launches).toEqual([]);
  });

  it("a notification the host cannot take is reported, and the flag stays false", async () => {
    const { runtime, warnings, files } = setup({ exit: { code: 0 } }, { failNotify: true });
    const task = await startOk(runtime);
    const done = await runtime.waitForTerminal(task.id);
    expect(done.ok && done.value.notified).toBe(false);
    expect(meta(files, task.id).notified).toBe(false);
    expect(warnings.join()).toContain("host gone");
  });

  it("ids resolve by unique prefix; unknown and ambiguous ones are typed errors", async () => {
    const { runtime } = setup();
    const a = await startOk(runtime);
    expect(runtime.find(a.id.slice(0, 5))).toMatchObject({ ok: true, value: { id: a.id } });
    expect(runtime.find("zzz")).toMatchObject({ ok: false, error: { code: "task_unknown" } });
    expect(runtime.find("  ")).toMatchObject({ ok: false, error: { code: "task_id_required" } });
    expect(runtime.find("b")).toMatchObject({ ok: true });
    await startOk(runtime);
    expect(runtime.find("b")).toMatchObject({ ok: false, error: { code: "task_id_ambiguous" } });
  });
});
