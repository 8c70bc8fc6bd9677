import { createEventBus } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { ok } from "../../domain/shared/model/result.ts";
import { BUS_CHANNELS, BUS_SCHEMA_IDS } from "../../domain/tasks/model/event-bus-frames.ts";
import { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";
import { FakeClock } from "../fake/fake-clock.ts";
import { FakeProcessLauncher } from "../fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../fake/seeded-random-source.ts";
import { EventBusApi } from "./event-bus-api.ts";
import type { RuntimeLifecycle } from "./runtime-lifecycle.ts";

type Frame = {
  request_id?: string | null;
  ok?: boolean;
  result?: { id?: string };
  error?: { code: string };
  task?: { id: string; status: string };
};

/** The EventBus API over a runtime that a lifecycle builds on first need (as the Pi extension wires it). */
function world() {
  const bus = createEventBus();
  const launcher = new FakeProcessLauncher({ clock: new FakeClock(), script: () => ({}) });
  let runtime: TaskRuntime | undefined;
  let builds = 0;
  let refuse = false;
  const listeners: Array<(runtime: TaskRuntime) => void> = [];
  const lifecycle: RuntimeLifecycle = {
    ready: async () => {
      if (refuse) throw Object.assign(new Error("not active"), { code: "session_not_started" });
      if (runtime === undefined) {
        builds += 1;
        runtime = new TaskRuntime(
          {
            launcher,
            files: new InMemoryFileCommitter(),
            clock: new FakeClock({ wallMs: 1_700_000_000_000 }),
            random: new SeededRandomSource(5),
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
        for (const listener of listeners) listener(runtime);
      }
      return runtime;
    },
    built: () => runtime,
    onBuilt: (listener) => void listeners.push(listener),
  };
  const access = () => {
    if (runtime === undefined || refuse) throw Object.assign(new Error("not active"), { code: "session_not_started" });
    return runtime;
  };
  const api = new EventBusApi(bus, access, () => undefined, lifecycle);
  lifecycle.onBuilt((built) => api.attach(built));
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
    return log.find((e) => e.channel === BUS_CHANNELS.response && e.frame.request_id === id)?.frame ?? {};
  };
  const responses = (id: string) =>
    log.filter((e) => e.channel === BUS_CHANNELS.response && e.frame.request_id === id).map((e) => e.frame);
  const terminals = (taskId: string) =>
    log.filter((e) => e.channel === BUS_CHANNELS.terminal && e.frame.task?.id === taskId);
  return {
    api,
    lifecycle,
    launcher,
    send,
    responseTo,
    responses,
    terminals,
    builds: () => builds,
    refuse: () => (refuse = true),
  };
}

describe("EventBus API with a runtime built on first need", () => {
  it("opening builds nothing; the first request that needs the runtime builds it once and is answered from it", async () => {
    const w = world();
    w.api.listen();
    expect((await w.responseTo(w.send("status", {}))).error?.code).toBe("session_not_started");
    w.api.open();
    expect(w.builds()).toBe(0);
    const [a, b] = [w.send("status", {}), w.send("logs", { taskId: "bzzzzzzzz" })];
    expect(await w.responseTo(a)).toMatchObject({ ok: true, result: { tasks: [] } });
    expect((await w.responseTo(b)).error?.code).toBe("task_unknown");
    expect(w.builds()).toBe(1);
  });

  it("capabilities are answered without building the runtime, and their request ids still count", async () => {
    const w = world();
    w.api.open();
    const caps = await w.responseTo(w.send("capabilities", {}, "c1"));
    expect(caps).toMatchObject({ ok: true, result: { api_version: 1, run: true } });
    expect(w.builds()).toBe(0);
    w.send("capabilities", {}, "c1");
    await expect.poll(() => w.responses("c1").length).toBe(2);
    expect(w.responses("c1")[1]).toMatchObject({ ok: false, error: { code: "duplicate_request_id" } });
    w.send("status", {}, "c1");
    await expect.poll(() => w.responses("c1").length).toBe(3);
    expect(w.responses("c1")[2]).toMatchObject({ ok: false, error: { code: "duplicate_request_id" } });
    expect(w.builds()).toBe(1);
  });

  it("a task started through the bus publishes exactly one terminal frame", async () => {
    const w = world();
    w.api.open();
    const started = await w.responseTo(w.send("run", { command: "work", isAgent: false }));
    const taskId = started.result?.id ?? "";
    w.launcher.processes[0]?.finish({ code: 0 });
    await expect.poll(() => w.terminals(taskId).length).toBe(1);
    expect(w.terminals(taskId)[0]?.frame.task).toMatchObject({ id: taskId, status: "completed" });
  });

  it("terminal frames follow a runtime built by something else (a tool), before or after open", async () => {
    for (const buildFirst of [true, false]) {
      const w = world();
      if (buildFirst) await w.lifecycle.ready();
      w.api.open();
      const runtime = await w.lifecycle.ready();
      const started = await runtime.start({
        name: "tool job",
        command: "work",
        isAgent: false,
        notifyOnCompletion: false,
        triggerOnCompletion: false,
        onOutputCap: "keep_head_and_tail",
      });
      if (!started.ok) throw new Error(started.error.message);
      w.launcher.processes[0]?.finish({ code: 2 });
      await expect.poll(() => w.terminals(started.value.id).length).toBe(1);
      expect(w.terminals(started.value.id)[0]?.frame.task?.status).toBe("failed");
    }
  });

  it("a session that ends while the runtime would be built answers session_shutting_down", async () => {
    const w = world();
    w.api.open();
    w.refuse();
    expect((await w.responseTo(w.send("status", {}))).error?.code).toBe("session_shutting_down");
    expect(w.builds()).toBe(0);
  });
});
