import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUS_CHANNELS, BUS_SCHEMA_IDS } from "../../../domain/tasks/model/event-bus-frames.ts";
import { PACKAGE_ROOT, startSdkSession, type SdkSession } from "./sdk-session.ts";

type Frame = {
  request_id?: string | null;
  ok?: boolean;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
  task?: { id: string; status: string };
};
interface Probe {
  readonly responses: Frame[];
  readonly terminals: Frame[];
  send(frame: unknown): void;
}

/**
 * A second, unrelated extension: it only knows the channel names and frame shapes. It sends one request
 * while Pi is still loading extensions (before session_start) and exposes the bus to the test.
 */
const CONSUMER = `
export default function consumer(pi) {
  const responses = [];
  const terminals = [];
  pi.events.on(${JSON.stringify(BUS_CHANNELS.response)}, (frame) => { responses.push(frame); });
  pi.events.on(${JSON.stringify(BUS_CHANNELS.terminal)}, (frame) => { terminals.push(frame); });
  globalThis.__bgBusProbe = { responses, terminals, send: (frame) => pi.events.emit(${JSON.stringify(BUS_CHANNELS.request)}, frame) };
  pi.events.emit(${JSON.stringify(BUS_CHANNELS.request)}, { schema_version: ${JSON.stringify(BUS_SCHEMA_IDS.request)}, request_id: "early", operation: "capabilities", payload: {} });
}
`;

let session: SdkSession | undefined;
let probe: Probe;
let n = 0;

function request(operation: string, payload: unknown, id = `e2e-${++n}`): string {
  probe.send({ schema_version: BUS_SCHEMA_IDS.request, request_id: id, operation, payload });
  return id;
}

async function answer(id: string): Promise<Frame> {
  await expect.poll(() => probe.responses.some((f) => f.request_id === id), { timeout: 10_000 }).toBe(true);
  const frames = probe.responses.filter((f) => f.request_id === id);
  expect(frames).toHaveLength(1);
  return frames[0] as Frame;
}

beforeAll(async () => {
  const cwd = mkdtempSync(join(tmpdir(), "bg-bus-"));
  const consumerPath = join(cwd, "bus-consumer.mjs");
  writeFileSync(consumerPath, CONSUMER);
  session = await startSdkSession({ cwd, agentDir: join(cwd, "agent"), extensionPaths: [PACKAGE_ROOT, consumerPath] });
  probe = (globalThis as unknown as { __bgBusProbe: Probe }).__bgBusProbe;
});

afterAll(async () => {
  await session?.shutdown();
});

async function shutdownOnce(): Promise<void> {
  const open = session;
  session = undefined;
  await open?.shutdown();
}

describe("a second extension drives background tasks through pi.events", () => {
  it("a request sent before session_start was refused with session_not_started", async () => {
    expect(await answer("early")).toMatchObject({ ok: false, error: { code: "session_not_started" } });
  });

  it("runs a task, reads its output, and receives its terminal frame exactly once", async () => {
    expect((await answer(request("capabilities", {}))).result).toMatchObject({ api_version: 1, run: true, kill: true });
    const run = await answer(
      request("run", {
        name: "bus task",
        command: "echo bus-out; sleep 0.3",
        isAgent: false,
        notifyOnCompletion: false,
      }),
    );
    expect(run).toMatchObject({ ok: true, result: { name: "bus task", status: "running" } });
    const taskId = String(run.result?.id);
    await expect.poll(() => probe.terminals.filter((f) => f.task?.id === taskId).length, { timeout: 10_000 }).toBe(1);
    expect(probe.terminals.find((f) => f.task?.id === taskId)?.task).toMatchObject({
      status: "completed",
      exitCode: 0,
    });
    const logs = await answer(request("logs", { taskId }));
    expect(logs.result).toMatchObject({ text: "bus-out\n", truncated: false });
    await new Promise((r) => setTimeout(r, 500));
    expect(probe.terminals.filter((f) => f.task?.id === taskId)).toHaveLength(1);
  });

  it("kills a task: the kill response arrives before its single terminal frame", async () => {
    const run = await answer(
      request("run", { name: "bus sleeper", command: "sleep 60", isAgent: false, notifyOnCompletion: false }),
    );
    const taskId = String(run.result?.id);
    const killId = request("kill", { taskId });
    await expect.poll(() => probe.terminals.filter((f) => f.task?.id === taskId).length, { timeout: 10_000 }).toBe(1);
    expect(await answer(killId)).toMatchObject({ ok: true, result: { task: { id: taskId, status: "killed" } } });
    const status = await answer(request("status", { taskId }));
    expect(status.result).toMatchObject({ tasks: [{ id: taskId, status: "killed" }] });
  });

  it("answers malformed frames with ok:false and a reason", async () => {
    probe.send(42);
    probe.send({
      schema_version: BUS_SCHEMA_IDS.request,
      request_id: "bad-key",
      operation: "status",
      payload: {},
      extra: true,
    });
    expect(await answer("bad-key")).toMatchObject({
      ok: false,
      error: { code: "frame_invalid", message: expect.stringContaining("extra") },
    });
    expect((await answer(request("run", { command: "true", isAgent: "no" }))).error?.code).toBe("payload_invalid");
    expect((await answer(request("kill", { taskId: "bdeadbeef" }))).error?.code).toBe("task_unknown");
    expect(probe.responses).toContainEqual(
      expect.objectContaining({
        request_id: null,
        ok: false,
        error: expect.objectContaining({ code: "frame_invalid" }),
      }),
    );
    const first = await answer(request("status", {}, "twice"));
    expect(first.ok).toBe(true);
    request("status", {}, "twice");
    await expect.poll(() => probe.responses.filter((f) => f.request_id === "twice").length).toBe(2);
    expect(probe.responses.filter((f) => f.request_id === "twice")[1]).toMatchObject({
      ok: false,
      error: { code: "duplicate_request_id" },
    });
  });

  it("after session_shutdown the package answers nothing and publishes nothing", async () => {
    const run = await answer(
      request("run", { name: "outlives nothing", command: "sleep 60", isAgent: false, notifyOnCompletion: false }),
    );
    const taskId = String(run.result?.id);
    await shutdownOnce();
    // The task stopped by the shutdown got its one terminal frame while the session ended.
    expect(probe.terminals.filter((f) => f.task?.id === taskId).map((f) => f.task?.status)).toEqual(["killed"]);
    const frames = probe.responses.length + probe.terminals.length;
    // Pi 0.73 still delivers a late request; Pi 1.x refuses any emit from an extension whose session ended.
    let late = "";
    try {
      late = request("capabilities", {});
    } catch (error) {
      expect(String(error)).toContain("ctx is stale");
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(probe.responses.some((f) => f.request_id === late)).toBe(false);
    expect(probe.responses.length + probe.terminals.length).toBe(frames);
  });
});
