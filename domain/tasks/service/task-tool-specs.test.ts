import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher } from "../../../adapters/fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { callToolSpec, type AnyHostToolSpec } from "../../shared/service/host-tool-spec.ts";
import { ok } from "../../shared/model/result.ts";
import type { CompletionDelivery } from "../model/launch-receipt.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import { TaskRuntime } from "./task-runtime.ts";
import { taskToolSpecs } from "./task-tool-specs.ts";

function setup(delivery: CompletionDelivery) {
  const clock = new FakeClock();
  const launcher = new FakeProcessLauncher({
    clock,
    script: () => ({ stdout: ["hello\n"], exit: { code: 0 }, runMs: 1000 }),
  });
  launcher.on("sleep forever", {});
  const runtime = new TaskRuntime(
    {
      launcher,
      files: new InMemoryFileCommitter(),
      clock,
      random: new SeededRandomSource(3),
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
  const specs = new Map(
    taskToolSpecs({ runtime: () => runtime, now: () => clock.now(), delivery }).map((s) => [s.name, s]),
  );
  const call = (name: string, raw: unknown) => callToolSpec(specs.get(name) as AnyHostToolSpec, raw, {});
  return { clock, launcher, runtime, specs, call };
}

const taskOf = (details: unknown): TaskSnapshot => (details as { task: TaskSnapshot }).task;

describe("task tool specs", () => {
  it("are bg_run, bg_status, bg_logs, bg_kill with closed object schemas on both hosts", () => {
    for (const delivery of ["agent_turn", "notification_and_wait"] as const) {
      const { specs } = setup(delivery);
      expect([...specs.keys()]).toEqual(["bg_run", "bg_status", "bg_logs", "bg_kill"]);
      for (const spec of specs.values())
        expect(spec.parameters).toMatchObject({ type: "object", additionalProperties: false });
    }
  });

  it("share schemas and normalisers across hosts; only the completion wording differs", () => {
    const pi = setup("agent_turn").specs;
    const mcp = setup("notification_and_wait").specs;
    for (const [name, spec] of pi) {
      const other = mcp.get(name);
      expect(other?.parameters).toBe(spec.parameters);
      expect(other?.normalize({ taskId: " b1 ", command: "x", isAgent: false })).toEqual(
        spec.normalize({ taskId: " b1 ", command: "x", isAgent: false }),
      );
    }
    expect(mcp.get("bg_run")?.description).toContain("bg_wait");
    expect(pi.get("bg_run")?.description).not.toContain("bg_wait");
  });

  it("refuses bad arguments before anything starts, with the field named", async () => {
    const { call, launcher } = setup("notification_and_wait");
    const unknownKey = await call("bg_run", { command: "echo", isAgent: false, shell: "zsh" });
    const missing = await call("bg_run", { command: "echo" });
    expect(unknownKey).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
    expect(!unknownKey.ok && unknownKey.error.message).toContain("'shell'");
    expect(!missing.ok && missing.error.message).toContain("missing required 'isAgent'");
    expect(launcher.launches).toEqual([]);
  });

  it("bg_run answers with a receipt telling an MCP client to use bg_wait, and Pi to expect a new turn", async () => {
    const mcp = await setup("notification_and_wait").call("bg_run", { command: "make", isAgent: false });
    const pi = await setup("agent_turn").call("bg_run", { command: "make", isAgent: false });
    const id = mcp.ok ? taskOf(mcp.value.details).id : "";
    expect(mcp.ok && mcp.value.text).toContain(`bg_wait {"taskId":"${id}"}`);
    expect(mcp.ok && mcp.value.text).not.toContain("will start a new agent turn");
    expect(pi.ok && pi.value.text).toContain("will start a new agent turn");
  });

  it("bg_status, bg_logs and bg_kill run over the runtime and return its typed errors", async () => {
    const { call, clock, runtime } = setup("notification_and_wait");
    const quick = await call("bg_run", { command: "echo hello", isAgent: false });
    const slow = await call("bg_run", { command: "sleep forever", isAgent: false });
    const [quickId, slowId] = [quick, slow].map((r) => (r.ok ? taskOf(r.value.details).id : ""));
    clock.advance(1000);
    await runtime.waitForTerminal(quickId ?? "");
    const logs = await call("bg_logs", { taskId: quickId });
    expect(logs.ok && logs.value.text).toContain("hello");
    expect(logs.ok && logs.value.details).toMatchObject({ bytesRead: 6, truncated: false, tail: true });
    const status = await call("bg_status", {});
    expect(status.ok && (status.value.details as { tasks: TaskSnapshot[] }).tasks.map((t) => t.status).sort()).toEqual([
      "completed",
      "running",
    ]);
    const killing = call("bg_kill", { taskId: slowId });
    clock.advance(200);
    expect(await killing).toMatchObject({ ok: true, value: { details: { task: { status: "killed" } } } });
    expect(await call("bg_kill", { taskId: slowId })).toMatchObject({ ok: false, error: { code: "task_not_running" } });
    expect(await call("bg_logs", { taskId: "zzz" })).toMatchObject({
      ok: false,
      error: { code: "task_unknown", message: expect.stringContaining("List tasks with bg_status") },
    });
  });
});
