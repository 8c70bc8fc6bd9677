import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher } from "../../../adapters/fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { callToolSpec, type ToolRunContext } from "../../shared/service/host-tool-spec.ts";
import { ok } from "../../shared/model/result.ts";
import { normalizeRunArguments } from "../model/run-request.ts";
import { TaskRuntime } from "./task-runtime.ts";
import { waitToolSpec } from "./task-wait-spec.ts";

function setup() {
  const clock = new FakeClock();
  const launcher = new FakeProcessLauncher({
    clock,
    script: () => ({ stdout: ["build ok\n"], exit: { code: 0 }, runMs: 3000 }),
  });
  launcher.on("sleep forever", {});
  const runtime = new TaskRuntime(
    {
      launcher,
      files: new InMemoryFileCommitter(),
      clock,
      random: new SeededRandomSource(5),
      notifier: { deliver: async () => ok(undefined) },
      warn: () => undefined,
    },
    {
      cwd: "/w",
      taskDir: "/w/.pi/tasks/x",
      displayDir: ".pi/tasks/x",
      env: {},
      outputCapBytes: 1 << 20,
      killGraceMs: 100,
      retainTasks: 10,
    },
  );
  const spec = waitToolSpec({ runtime: () => runtime, clock, progressEveryMs: 10_000 });
  const start = async (command: string) => {
    const request = normalizeRunArguments({ command, isAgent: false });
    if (!request.ok) throw new Error(request.error.message);
    const started = await runtime.start(request.value);
    if (!started.ok) throw new Error(started.error.message);
    return started.value.id;
  };
  const wait = (raw: unknown, context: ToolRunContext = {}) => callToolSpec(spec, raw, context);
  return { clock, launcher, runtime, start, wait };
}

describe("bg_wait", () => {
  it("blocks until the task ends and answers with its final state and last output, leaving no timer behind", async () => {
    const { clock, start, wait } = setup();
    const id = await start("make");
    const waiting = wait({ taskId: id, timeoutSeconds: 60 });
    let settled = false;
    void waiting.then(() => (settled = true));
    clock.advance(2999);
    await Promise.resolve();
    expect(settled).toBe(false);
    clock.advance(1);
    const answer = await waiting;
    expect(answer).toMatchObject({
      ok: true,
      value: { details: { outcome: "terminal", task: { id, status: "completed", exitCode: 0 } } },
    });
    expect(answer.ok && answer.value.text).toContain("<status>completed</status>");
    expect(answer.ok && answer.value.text).toContain("build ok");
    expect(clock.pendingTimers()).toBe(0);
  });

  it("answers still_running when the bounded time runs out, and does not stop the task", async () => {
    const { clock, launcher, runtime, start, wait } = setup();
    const id = await start("sleep forever");
    const waiting = wait({ taskId: id, timeoutSeconds: 5 });
    clock.advance(5000);
    const answer = await waiting;
    expect(answer).toMatchObject({
      ok: true,
      value: { details: { outcome: "still_running", task: { id, status: "running" }, waitedSeconds: 5 } },
    });
    expect(answer.ok && answer.value.text).toContain("still_running");
    expect(launcher.running()).toHaveLength(1);
    expect(runtime.find(id)).toMatchObject({ ok: true, value: { status: "running" } });
  });

  it("returns at once for a task that already ended", async () => {
    const { clock, runtime, start, wait } = setup();
    const id = await start("make");
    clock.advance(3000);
    await runtime.waitForTerminal(id);
    expect(await wait({ taskId: id })).toMatchObject({ ok: true, value: { details: { outcome: "terminal" } } });
  });

  it("reports progress while it waits (for hosts that keep the call alive with it) and stops reporting after", async () => {
    const { clock, start, wait } = setup();
    const id = await start("sleep forever");
    const notes: string[] = [];
    const waiting = wait({ taskId: id, timeoutSeconds: 25 }, { progress: (m) => notes.push(m) });
    clock.advance(25_000);
    await waiting;
    clock.advance(60_000);
    expect(notes).toEqual([`Waiting for ${id}: 10 s of 25 s`, `Waiting for ${id}: 20 s of 25 s`]);
  });

  it("a cancelled call is a typed wait_cancelled and the task keeps running", async () => {
    const { start, wait, runtime } = setup();
    const id = await start("sleep forever");
    const controller = new AbortController();
    const waiting = wait({ taskId: id, timeoutSeconds: 600 }, { signal: controller.signal });
    controller.abort();
    expect(await waiting).toMatchObject({ ok: false, error: { code: "wait_cancelled" } });
    expect(runtime.find(id)).toMatchObject({ ok: true, value: { status: "running" } });
  });

  it("refuses bad input with typed errors: out-of-range or non-numeric timeouts, unknown keys, unknown tasks", async () => {
    const { start, wait } = setup();
    const id = await start("sleep forever");
    for (const raw of [
      { taskId: id, timeoutSeconds: 601 },
      { taskId: id, timeoutSeconds: 0 },
      { taskId: id, timeoutSeconds: "5" },
      { taskId: id, poll: true },
      {},
      { taskId: "  " },
    ]) {
      expect(await wait(raw)).toMatchObject({ ok: false, error: { code: "invalid_arguments", tool: "bg_wait" } });
    }
    expect(await wait({ taskId: "nope" })).toMatchObject({ ok: false, error: { code: "task_unknown" } });
  });
});
