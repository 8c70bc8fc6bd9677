import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher, type FakeScript } from "../../../adapters/fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { ok } from "../../shared/model/result.ts";
import { TELEMETRY_FRAME_MARKER } from "../../telemetry/model/telemetry-frame.ts";
import { WrappedPiStdoutFilter } from "../../telemetry/model/wrapped-pi-stdout-filter.ts";
import { normalizeRunArguments, type RunRequest } from "../model/run-request.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import type { StreamFilter, TaskCompletion } from "./execution-hooks.ts";
import { TaskRuntime, type LaunchPlanner } from "./task-runtime.ts";

const DIR = "/w/.pi/tasks/s-1";
const frame = (event: unknown) => `${TELEMETRY_FRAME_MARKER}${JSON.stringify(event)}\n`;
const assistant = (stopReason: string, extra: Record<string, unknown>) =>
  frame({
    type: "message_end",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "answer text" }],
      provider: "p",
      model: "m",
      stopReason,
      ...extra,
    },
  });
const USAGE = {
  usage: { input: 300, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 400, cost: { total: 0.25 } },
};

function request(overrides: Record<string, unknown> = {}): RunRequest {
  const r = normalizeRunArguments({ name: "agent", command: "pi -p x", isAgent: true, ...overrides });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function setup(script: FakeScript, planLaunch?: LaunchPlanner) {
  const clock = new FakeClock();
  const launcher = new FakeProcessLauncher({ clock, script: () => script });
  const files = new InMemoryFileCommitter();
  const runtime = new TaskRuntime(
    {
      launcher,
      files,
      clock,
      random: new SeededRandomSource(3),
      notifier: { deliver: async () => ok(undefined) },
      warn: () => undefined,
      ...(planLaunch ? { planLaunch } : {}),
    },
    {
      cwd: "/w",
      taskDir: DIR,
      displayDir: ".pi/tasks/s-1",
      env: { FROM: "config" },
      outputCapBytes: 1 << 20,
      killGraceMs: 3000,
      retainTasks: 100,
    },
  );
  const seen: TaskSnapshot[] = [];
  runtime.subscribe((s) => seen.push(s));
  return { launcher, files, runtime, seen };
}

const text = (files: InMemoryFileCommitter, path: string) =>
  Buffer.from(files.contents(path) ?? new Uint8Array()).toString("utf8");
const meta = (files: InMemoryFileCommitter, id: string) => JSON.parse(text(files, `${DIR}/${id}.json`)) as TaskSnapshot;

async function runToEnd(runtime: TaskRuntime, r: RunRequest, plan?: Parameters<TaskRuntime["start"]>[1]) {
  const started = await runtime.start(r, plan);
  if (!started.ok) throw new Error(started.error.message);
  const done = await runtime.waitForTerminal(started.value.id);
  if (!done.ok) throw new Error(done.error.message);
  return done.value;
}

describe("TaskRuntime with a telemetry filter", () => {
  const agentPlanner: LaunchPlanner = (r, shell) =>
    r.isAgent
      ? { command: shell, stdoutFilter: new WrappedPiStdoutFilter(new Map([["p/m", 1000]])) }
      : { command: shell };

  it("publishes telemetry while running, keeps it in the terminal metadata, and writes a transcript", async () => {
    const stdout = [
      frame({ type: "session", id: "s" }),
      frame({ type: "agent_start" }),
      assistant("stop", USAGE),
      frame({ type: "agent_end" }),
    ];
    const { runtime, files, seen } = setup({ stdout, exit: { code: 0 } }, agentPlanner);
    const done = await runToEnd(runtime, request());
    const live = seen.filter((s) => s.status === "running" && s.tokenUsage !== undefined);
    expect(live.length).toBeGreaterThan(0);
    expect(live.at(-1)?.tokenUsage).toEqual({
      input: 300,
      output: 100,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 400,
      costTotal: 0.25,
    });
    expect(done).toMatchObject({
      status: "completed",
      contextUsage: { tokens: 400, contextWindow: 1000, percent: 40 },
      model: "p/m",
      toolUsage: { total: 0 },
    });
    expect(meta(files, done.id)).toMatchObject({
      status: "completed",
      tokenUsage: { totalTokens: 400 },
      contextUsage: { percent: 40 },
    });
    expect(text(files, `${DIR}/${done.id}.output`)).toBe("answer text\n");
    // The terminal snapshot is published once, after the trailing telemetry was folded.
    const firstTerminal = seen.find((s) => s.status !== "running");
    expect(firstTerminal?.tokenUsage?.totalTokens).toBe(400);
  });

  it("a run whose model call failed ends failed with the provider's error although the process exited 0", async () => {
    const stdout = [
      frame({ type: "agent_start" }),
      assistant("error", { errorMessage: "400 scripted quota error" }),
      frame({ type: "agent_end" }),
    ];
    const { runtime, files } = setup({ stdout, exit: { code: 0 } }, agentPlanner);
    const done = await runToEnd(runtime, request());
    expect(done.status).toBe("failed");
    expect(done.exitCode).toBe(0);
    expect(done.error).toMatch(/pi_model_call_failed.*400 scripted quota error/);
    expect(meta(files, done.id).status).toBe("failed");
  });

  it("a non-zero exit keeps the exit code in the error and adds the run's own failure", async () => {
    const stdout = [
      frame({ type: "agent_start" }),
      assistant("error", { errorMessage: "boom" }),
      frame({ type: "agent_end" }),
    ];
    const { runtime } = setup({ stdout, exit: { code: 1 } }, agentPlanner);
    expect((await runToEnd(runtime, request())).error).toMatch(
      /^Exited with code 1; Pi run failed \(pi_model_call_failed\).*boom/,
    );
  });

  it("the planner's reason is recorded for an agent task it does not wrap, and non-agent tasks get no reason", async () => {
    const planner: LaunchPlanner = (r, shell) => ({
      command: shell,
      ...(r.isAgent ? { telemetryUnavailableReason: "path-qualified-pi-not-wrapped" } : {}),
    });
    const { runtime } = setup({ exit: { code: 0 } }, planner);
    expect(await runToEnd(runtime, request())).toMatchObject({
      telemetryUnavailableReason: "path-qualified-pi-not-wrapped",
      status: "completed",
    });
    expect((await runToEnd(runtime, request({ isAgent: false }))).telemetryUnavailableReason).toBeUndefined();
  });
});

describe("TaskRuntime with an explicit launch plan", () => {
  const argv = { kind: "argv", file: "/usr/bin/node", args: ["cli.js", "--mode", "json"] } as const;

  it("uses the plan's id, stdin, env and facets, and routes stderr through its filter", async () => {
    const swallowed: string[] = [];
    const stderrFilter: StreamFilter = {
      push: async (c) => (swallowed.push(Buffer.from(c).toString()), []),
      flush: () => [],
    };
    const { runtime, launcher, files } = setup({ stdout: ["out\n"], stderr: ["secret stderr\n"], exit: { code: 0 } });
    const id = `b${"a".repeat(32)}`;
    const plan = {
      id,
      command: argv,
      stdin: new TextEncoder().encode("prompt"),
      env: { ONLY: "this" },
      stderrFilter,
      facets: {
        attestedPi: {
          provider: "p",
          model: "m",
          authClass: "api-key-or-local",
          reportPath: "r.md",
          eventsPath: "e",
          stderrPath: "s",
          promptSha256: "0",
        },
      },
    };
    const done = await runToEnd(runtime, request({ notifyOnCompletion: false }), plan);
    expect(done.id).toBe(id);
    expect(done.attestedPi?.reportPath).toBe("r.md");
    expect(launcher.launches[0]).toMatchObject({ command: argv, env: { ONLY: "this" } });
    expect(Buffer.from(launcher.launches[0]?.stdin ?? []).toString()).toBe("prompt");
    expect(swallowed).toEqual(["secret stderr\n"]);
    expect(text(files, `${DIR}/${id}.output`)).toBe("out\n");
    const again = await runtime.start(request(), plan);
    expect(again.ok ? "started" : again.error.code).toBe("task_id_in_use");
    expect(launcher.launches).toHaveLength(1);
  });

  it("judge failure fails a clean exit; the seal runs after the terminal metadata is durable and can fail the task", async () => {
    const calls: string[] = [];
    const { runtime, files } = setup({ exit: { code: 0 } });
    const judging: TaskCompletion = {
      judge: async () => (calls.push("judge"), { failure: "worktree dirty at finish" }),
      seal: async (t) => (calls.push("seal"), t),
    };
    expect(await runToEnd(runtime, request(), { command: argv, completion: judging })).toMatchObject({
      status: "failed",
      error: "worktree dirty at finish",
    });
    expect(calls).toEqual(["judge"]);

    let metadataAtSeal: TaskSnapshot | undefined;
    const sealing: TaskCompletion = {
      judge: async () => ({ patch: { attestationPath: "x.attestation.json" } }),
      seal: async (t) => {
        metadataAtSeal = meta(files, t.id);
        const { attestationPath: _dropped, ...rest } = t;
        return { ...rest, status: "failed", error: "sidecar write failed" };
      },
    };
    const sealed = await runToEnd(runtime, request(), { command: argv, completion: sealing });
    expect(metadataAtSeal).toMatchObject({ status: "completed", attestationPath: "x.attestation.json" });
    expect(sealed).toMatchObject({ status: "failed", error: "sidecar write failed" });
    expect(meta(files, sealed.id)).toMatchObject({ status: "failed", error: "sidecar write failed" });
    expect(meta(files, sealed.id).attestationPath).toBeUndefined();
  });

  it("a filter over its own limit stops the task, which fails with the filter's reason", async () => {
    const limited: StreamFilter = {
      push: () => [],
      flush: () => [],
      overLimit: () => true,
      failure: () => "raw evidence over its 10-byte cap",
    };
    const { runtime, launcher } = setup({ stdout: ["12345678901\n"] });
    const done = await runToEnd(runtime, request(), { command: argv, stdoutFilter: limited });
    expect(done).toMatchObject({
      status: "failed",
      error: "raw evidence over its 10-byte cap",
      killKind: "output_cap",
    });
    expect(launcher.running()).toEqual([]);
  });
});
