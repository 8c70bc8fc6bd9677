import { createEventBus } from "@mariozechner/pi-coding-agent";
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { ok } from "../../domain/shared/model/result.ts";
import {
  BUS_CHANNELS,
  BUS_SCHEMA_IDS,
  ResponseFrameSchema,
  TerminalFrameSchema,
} from "../../domain/tasks/model/event-bus-frames.ts";
import { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";
import { FakeClock } from "../fake/fake-clock.ts";
import { FakeProcessLauncher } from "../fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../fake/seeded-random-source.ts";
import { EventBusApi, type EventBusLike } from "./event-bus-api.ts";

type Frame = Record<string, unknown> & {
  request_id?: string | null;
  ok?: boolean;
  result?: never;
  error?: { code: string; message: string };
  task?: { id: string; status: string };
};

function world(bus: EventBusLike = createEventBus()) {
  const launcher = new FakeProcessLauncher({ clock: new FakeClock(), script: () => ({}) });
  const runtime = new TaskRuntime(
    {
      launcher,
      files: new InMemoryFileCommitter(),
      clock: new FakeClock({ wallMs: 1_700_000_000_000 }),
      random: new SeededRandomSource(7),
      notifier: { deliver: async () => ok(undefined) },
      warn: () => undefined,
    },
    {
      cwd: "/w",
      taskDir: "/w/.pi/tasks/s-1",
      displayDir: ".pi/tasks/s-1",
      env: {},
      outputCapBytes: 1 << 20,
      killGraceMs: 50,
      retainTasks: 100,
    },
  );
  let scoped: TaskRuntime | undefined = runtime;
  const warnings: string[] = [];
  const api = new EventBusApi(
    bus,
    () => {
      if (scoped === undefined) throw Object.assign(new Error("not active"), { code: "session_not_started" });
      return scoped;
    },
    (message) => warnings.push(message),
  );
  const log: Array<{ channel: string; frame: Frame }> = [];
  for (const channel of [BUS_CHANNELS.response, BUS_CHANNELS.terminal])
    bus.on(channel, (frame) => void log.push({ channel, frame: frame as Frame }));
  let n = 0;
  const send = (operation: string, payload: unknown, id = `req-${++n}`) => {
    bus.emit(BUS_CHANNELS.request, { schema_version: BUS_SCHEMA_IDS.request, request_id: id, operation, payload });
    return id;
  };
  const responseTo = async (id: string): Promise<Frame> => {
    await expect
      .poll(() => log.some((e) => e.channel === BUS_CHANNELS.response && e.frame.request_id === id))
      .toBe(true);
    const found = log.find((e) => e.channel === BUS_CHANNELS.response && e.frame.request_id === id);
    if (found === undefined) throw new Error("unreachable");
    expect(Value.Check(ResponseFrameSchema, found.frame)).toBe(true);
    return found.frame;
  };
  const terminals = (taskId: string) =>
    log.filter((e) => e.channel === BUS_CHANNELS.terminal && e.frame.task?.id === taskId);
  return {
    bus,
    api,
    runtime,
    launcher,
    log,
    warnings,
    send,
    responseTo,
    terminals,
    endScope: () => (scoped = undefined),
  };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe("EventBus API", () => {
  it("refuses requests before session_start, answers capabilities after it", async () => {
    const w = world();
    w.api.listen();
    expect((await w.responseTo(w.send("capabilities", {}))).error?.code).toBe("session_not_started");
    w.api.open();
    const caps = await w.responseTo(w.send("capabilities", {}));
    expect(caps).toMatchObject({
      ok: true,
      operation: "capabilities",
      result: {
        api_version: 1,
        run: true,
        run_is_agent: true,
        run_completion_trigger: true,
        status: true,
        logs: true,
        logs_bounded: true,
        kill: true,
      },
    });
  });

  it("answers malformed frames, unknown keys and duplicate ids with ok:false and a reason", async () => {
    const w = world();
    w.api.open();
    w.bus.emit(BUS_CHANNELS.request, "not a frame");
    w.bus.emit(BUS_CHANNELS.request, {
      schema_version: BUS_SCHEMA_IDS.request,
      request_id: "x1",
      operation: "status",
      payload: {},
      sneaky: true,
    });
    await settle();
    const rejected = w.log.filter((e) => e.channel === BUS_CHANNELS.response).map((e) => e.frame);
    expect(rejected).toEqual([
      expect.objectContaining({
        request_id: null,
        operation: null,
        ok: false,
        error: expect.objectContaining({ code: "frame_invalid" }),
      }),
      expect.objectContaining({
        request_id: "x1",
        operation: "status",
        ok: false,
        error: expect.objectContaining({ code: "frame_invalid", message: expect.stringContaining("sneaky") }),
      }),
    ]);
    expect((await w.responseTo(w.send("run", { command: "true", isAgent: false, color: "red" }))).error?.code).toBe(
      "payload_invalid",
    );
    const first = await w.responseTo(w.send("status", {}, "same"));
    expect(first.ok).toBe(true);
    w.send("status", {}, "same");
    await settle();
    const second = w.log.filter((e) => e.frame.request_id === "same")[1]?.frame;
    expect(second).toMatchObject({ ok: false, error: { code: "duplicate_request_id" } });
  });

  it("run → response with the snapshot, then exactly one terminal frame after the metadata is durable", async () => {
    const w = world();
    w.api.open();
    const id = w.send("run", { name: "bus job", command: "work", isAgent: false, triggerOnCompletion: false });
    const response = await w.responseTo(id);
    expect(response).toMatchObject({ ok: true, operation: "run", result: { name: "bus job", status: "running" } });
    const taskId = (response.result as unknown as { id: string }).id;
    const proc = w.launcher.processes[0];
    proc?.write("stdout", "hello bus\n");
    proc?.finish({ code: 0 });
    await expect.poll(() => w.terminals(taskId).length).toBe(1);
    await w.runtime.waitForTerminal(taskId);
    await settle();
    expect(w.terminals(taskId)).toHaveLength(1); // the notified-flag update publishes nothing more
    const frame = w.terminals(taskId)[0]?.frame;
    expect(Value.Check(TerminalFrameSchema, frame)).toBe(true);
    expect(frame?.task).toMatchObject({ id: taskId, status: "completed", exitCode: 0 });
    const logs = await w.responseTo(w.send("logs", { taskId }));
    expect(logs.result).toMatchObject({ text: "hello bus\n", truncated: false, produced: 10 });
    const status = await w.responseTo(w.send("status", { taskId }));
    expect(status.result).toMatchObject({ tasks: [{ id: taskId, status: "completed" }] });
  });

  it("kill → the response comes before the task's terminal frame", async () => {
    const w = world();
    w.api.open();
    const started = await w.responseTo(w.send("run", { command: "forever", isAgent: false }));
    const taskId = (started.result as unknown as { id: string }).id;
    const killId = w.send("kill", { taskId });
    await expect.poll(() => w.terminals(taskId).length).toBe(1);
    const order = w.log
      .filter((e) => e.frame.request_id === killId || e.frame.task?.id === taskId)
      .map((e) => e.channel);
    expect(order).toEqual([BUS_CHANNELS.response, BUS_CHANNELS.terminal]);
    expect((await w.responseTo(killId)).result).toMatchObject({
      task: { id: taskId, status: "killed" },
      message: expect.stringContaining("Killed background task"),
    });
    expect((await w.responseTo(w.send("kill", { taskId }))).error?.code).toBe("task_not_running");
    expect((await w.responseTo(w.send("logs", { taskId: "bzzzzzzzz" }))).error?.code).toBe("task_unknown");
  });

  it("during shutdown requests are refused; after close nothing is answered or published", async () => {
    const w = world();
    w.api.open();
    const started = await w.responseTo(w.send("run", { command: "forever", isAgent: false }));
    const taskId = (started.result as unknown as { id: string }).id;
    const stopping = w.runtime.shutdown();
    expect((await w.responseTo(w.send("status", {}))).error?.code).toBe("session_shutting_down");
    await stopping;
    w.endScope();
    expect((await w.responseTo(w.send("status", {}))).error?.code).toBe("session_shutting_down");
    // The task stopped by the shutdown still gets its one terminal frame while the session ends.
    expect(w.terminals(taskId).map((e) => e.frame.task?.status)).toEqual(["killed"]);
    w.api.close();
    const before = w.log.length;
    w.send("capabilities", {});
    await settle();
    expect(w.log.length).toBe(before);
  });

  it("after close a task that ends publishes nothing", async () => {
    const w = world();
    w.api.open();
    const started = await w.responseTo(w.send("run", { command: "forever", isAgent: false }));
    const taskId = (started.result as unknown as { id: string }).id;
    w.api.close();
    w.launcher.processes[0]?.finish({ code: 0 });
    await w.runtime.waitForTerminal(taskId);
    await settle();
    expect(w.terminals(taskId)).toEqual([]);
  });

  it("a terminal frame the bus failed to take is retried until it is published, once", async () => {
    const real = createEventBus();
    let failures = 2;
    const flaky: EventBusLike = {
      on: (channel, handler) => real.on(channel, handler),
      emit: (channel, data) => {
        if (channel === BUS_CHANNELS.terminal && failures-- > 0) throw new Error("bus hiccup");
        real.emit(channel, data);
      },
    };
    const w = world(flaky);
    w.api.open();
    const started = await w.responseTo(w.send("run", { command: "quick", isAgent: false }));
    const taskId = (started.result as unknown as { id: string }).id;
    w.launcher.processes[0]?.finish({ code: 1 });
    await expect.poll(() => w.terminals(taskId).length, { timeout: 3000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 250));
    expect(w.terminals(taskId)).toHaveLength(1);
    expect(w.terminals(taskId)[0]?.frame.task?.status).toBe("failed");
    expect(w.warnings).toHaveLength(1);
    expect(w.warnings[0]).toContain("bus hiccup");
  });
});
