import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher, type FakeScript } from "../../../adapters/fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { ok } from "../../shared/model/result.ts";
import type { TaskNotification } from "../model/notification.ts";
import { normalizeRunArguments } from "../model/run-request.ts";
import { parseTaskMetadata } from "../model/task-metadata.ts";
import { TaskRuntime } from "./task-runtime.ts";

const DIR = "/w/t";

function setup(
  script: FakeScript,
  files: InMemoryFileCommitter,
  cap = 1 << 20,
  action: "keep_head_and_tail" | "kill" = "keep_head_and_tail",
) {
  const clock = new FakeClock();
  const launcher = new FakeProcessLauncher({ clock, script: () => script });
  const delivered: TaskNotification[] = [];
  const runtime = new TaskRuntime(
    {
      launcher,
      files,
      clock,
      random: new SeededRandomSource(9),
      notifier: { deliver: async (n) => (delivered.push(n), ok(undefined)) },
      warn: () => undefined,
    },
    { cwd: "/w", taskDir: DIR, displayDir: "t", env: {}, outputCapBytes: cap, killGraceMs: 100, retainTasks: 100 },
  );
  const request = normalizeRunArguments({ command: "flood", isAgent: false, onOutputCap: action });
  if (!request.ok) throw new Error(request.error.message);
  return { runtime, launcher, delivered, request: request.value };
}

const chunk = (n: number, fill: number) => new Uint8Array(n).fill(fill);
const sum = (o: { keptBytes: number; elidedBytes: number; unwrittenBytes?: number }) =>
  o.keptBytes + o.elidedBytes + (o.unwrittenBytes ?? 0);

describe("the runtime when the disk says no", () => {
  it.each([
    ["ensureDir", "EACCES"],
    ["createExclusive", "EACCES"],
    ["createExclusive", "EMFILE"],
    ["replaceAtomic", "ENOSPC"],
  ] as const)("%s failing with %s is a typed refusal and nothing is launched", async (op, code) => {
    const files = new InMemoryFileCommitter().failNext(op, code);
    const { runtime, launcher, request } = setup({ exit: { code: 0 } }, files);
    const started = await runtime.start(request);
    expect(started).toMatchObject({ ok: false, error: { code: "task_dir_unwritable" } });
    expect(!started.ok && started.error.message).toContain(code);
    expect(launcher.launches).toEqual([]);
    expect(runtime.list()).toEqual([]);
  });

  it("a disk that fills up during output fails the task, keeps what was written and accounts for every byte", async () => {
    const files = new InMemoryFileCommitter({ capacityBytes: 64 * 1024 });
    const pieces = Array.from({ length: 40 }, (_, i) => chunk(4096, 65 + (i % 26)));
    const { runtime, delivered, request } = setup({ stdout: pieces, exit: { code: 0 } }, files);
    const started = await runtime.start(request);
    if (!started.ok) throw new Error(started.error.message);
    const done = await runtime.waitForTerminal(started.value.id);
    if (!done.ok) throw new Error("lookup failed");
    const t = done.value;
    expect(t.status).toBe("failed");
    expect(t.exitCode).toBe(0); // the command itself succeeded; the task did not
    expect(t.error).toMatch(/ENOSPC/);
    expect(t.output.producedBytes).toBe(40 * 4096);
    const stored = files.contents(`${DIR}/${t.id}.output`) ?? new Uint8Array();
    expect(t.output.keptBytes).toBe(stored.length);
    expect(t.output.unwrittenBytes).toBe(40 * 4096 - stored.length);
    expect(sum(t.output)).toBe(t.output.producedBytes);
    expect(Buffer.from(stored).equals(Buffer.concat(pieces).subarray(0, stored.length))).toBe(true);
    expect(delivered.map((n) => n.snapshot.status)).toEqual(["failed"]);
    const log = await runtime.readLog(t.id, { maxBytes: 100, tail: true });
    expect(log.ok).toBe(true); // the evidence stays readable
  });

  it("a write error past the cap is accounted for as unwritten, never as kept", async () => {
    const files = new InMemoryFileCommitter();
    const { runtime, launcher, request } = setup({}, files, 8192);
    const started = await runtime.start(request);
    if (!started.ok) throw new Error(started.error.message);
    const proc = launcher.processes[0];
    if (proc === undefined) throw new Error("no process");
    proc.write("stderr", chunk(12_000, 1));
    await new Promise((resolve) => setImmediate(resolve));
    files.failNext("write", "EIO");
    proc.write("stderr", chunk(5_000, 2));
    proc.finish({ code: 0 });
    const done = await runtime.waitForTerminal(started.value.id);
    if (!done.ok) throw new Error("lookup failed");
    expect(done.value).toMatchObject({ status: "failed", output: { producedBytes: 17_000, unwrittenBytes: 5_000 } });
    expect(done.value.error).toMatch(/EIO/);
    expect(sum(done.value.output)).toBe(17_000);
  });

  it("a terminal state that cannot be saved is reported as failed, never as completed", async () => {
    const files = new InMemoryFileCommitter();
    const { runtime, launcher, delivered, request } = setup({}, files);
    const started = await runtime.start(request);
    if (!started.ok) throw new Error(started.error.message);
    await new Promise((resolve) => setImmediate(resolve));
    files.failNext("replaceAtomic", "ENOSPC");
    launcher.processes[0]?.finish({ code: 0 });
    const done = await runtime.waitForTerminal(started.value.id);
    expect(done.ok && done.value.status).toBe("failed");
    expect(done.ok && done.value.error).toMatch(/terminal metadata could not be written/);
    expect(delivered.map((n) => n.snapshot.status)).toEqual(["failed"]);
    const onDisk = parseTaskMetadata(files.contents(`${DIR}/${started.value.id}.json`) ?? new Uint8Array());
    expect(onDisk.ok && onDisk.value.status).not.toBe("completed");
  });
});
