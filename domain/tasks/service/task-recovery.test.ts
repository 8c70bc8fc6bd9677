import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher } from "../../../adapters/fake/fake-process-launcher.ts";
import { FakeSurvivorProbe } from "../../../adapters/fake/fake-survivor-probe.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { ok } from "../../shared/model/result.ts";
import { EXIT_RECORD_SCHEMA, type ExitRecord } from "../model/exit-record.ts";
import type { TaskNotification } from "../model/notification.ts";
import type { OrphanPolicy } from "../model/runtime-settings.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import { recoverOrphans } from "./task-recovery.ts";
import { TaskRuntime } from "./task-runtime.ts";

const ROOT = "/w/.pi/tasks";
const OLD = `${ROOT}/conv-a-77`;
const TAG = "0123456789abcdef0123456789abcdef";
const OTHER_TAG = "fedcba9876543210fedcba9876543210";
const encode = (text: string) => new TextEncoder().encode(text);

function snapshot(id: string, overrides: Partial<TaskSnapshot> = {}): TaskSnapshot {
  return {
    schema_version: "pi-background-tasks.task.v1",
    id,
    name: id,
    command: "make",
    status: "running",
    outputPath: `.pi/tasks/conv-a-77/${id}.output`,
    cwd: "/w",
    startTime: Date.UTC(2025, 0, 1) - 60_000,
    bytesWritten: 0,
    output: { producedBytes: 0, keptBytes: 0, elidedBytes: 0, capBytes: 1 << 20, capAction: "keep_head_and_tail" },
    isAgent: false,
    notified: false,
    notifyOnCompletion: true,
    triggerOnCompletion: true,
    hostPid: 77,
    hostStartedAt: "boot/77",
    processTag: TAG,
    pid: 78,
    ...overrides,
  };
}

const exitRecord = (overrides: Partial<ExitRecord> = {}): ExitRecord => ({
  schema_version: EXIT_RECORD_SCHEMA,
  code: 3,
  signal: null,
  endedAt: Date.UTC(2025, 0, 1) - 1_000,
  hostGone: true,
  spilledBytes: 6,
  lostOutputBytes: 0,
  ...overrides,
});

async function world(tasks: readonly TaskSnapshot[], options: { policy?: OrphanPolicy; conversation?: string } = {}) {
  const files = new InMemoryFileCommitter();
  const probe = new FakeSurvivorProbe();
  const clock = new FakeClock();
  const warnings: string[] = [];
  await files.ensureDir(OLD);
  for (const t of tasks) await files.replaceAtomic(`${OLD}/${t.id}.json`, encode(JSON.stringify(t)));
  probe.dirs = [{ dir: OLD, metadataFiles: tasks.map((t) => `${OLD}/${t.id}.json`) }];
  const recover = () =>
    recoverOrphans(
      { files, probe, clock, warn: (m) => warnings.push(m) },
      {
        root: ROOT,
        policy: options.policy ?? "reattach",
        killGraceMs: 3_000,
        pollMs: 1_000,
        conversation: options.conversation ?? "conv-b",
      },
    );
  const delivered: TaskNotification[] = [];
  const runtime = new TaskRuntime(
    {
      launcher: new FakeProcessLauncher({ clock }),
      files,
      clock,
      random: new SeededRandomSource(1),
      notifier: { deliver: async (n) => (delivered.push(n), ok(undefined)) },
      warn: (m) => warnings.push(m),
    },
    {
      cwd: "/w",
      taskDir: `${ROOT}/conv-b-99`,
      displayDir: ".pi/tasks/conv-b-99",
      env: {},
      outputCapBytes: 1 << 20,
      killGraceMs: 3_000,
      retainTasks: 100,
    },
  );
  const meta = (id: string): TaskSnapshot =>
    JSON.parse(Buffer.from(files.contents(`${OLD}/${id}.json`) ?? new Uint8Array()).toString()) as TaskSnapshot;
  const write = (path: string, text: string) => files.replaceAtomic(`${OLD}/${path}`, encode(text));
  return { files, probe, clock, warnings, recover, runtime, delivered, meta, write };
}

/** Lets the watcher's file reads (promises) run after the fake clock fired it. */
const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

describe("recoverOrphans", () => {
  it("two hosts starting at the same moment: exactly one takes an orphan over; the next takes it once that one is gone", async () => {
    const w = await world([snapshot("b00000001")]);
    w.probe.tagged.set(TAG, [78]);
    const recoverAs = (pid: number) => {
      const probe = new FakeSurvivorProbe({ pid, startedAt: `boot/${pid}` });
      probe.dirs = w.probe.dirs;
      for (const [tag, pids] of w.probe.tagged) probe.tagged.set(tag, pids);
      for (const host of [1000, 2000, 3000].filter((h) => h !== pid && live.has(h)))
        probe.liveHosts.add(`${host}@boot/${host}`);
      return recoverOrphans(
        { files: w.files, probe, clock: w.clock, warn: (m) => w.warnings.push(m) },
        { root: ROOT, policy: "reattach", killGraceMs: 3_000, pollMs: 1_000, conversation: "conv-b" },
      );
    };
    const live = new Set([1000, 2000]);
    const [first, second] = await Promise.all([recoverAs(1000), recoverAs(2000)]);
    expect(first.length + second.length).toBe(1);
    const owner = first.length === 1 ? 1000 : 2000;
    expect(w.meta("b00000001")).toMatchObject({ status: "running", hostPid: owner });
    live.delete(owner);
    live.add(3000);
    const [third] = await recoverAs(3000);
    expect(third?.snapshot).toMatchObject({ id: "b00000001", status: "running" });
    expect(w.meta("b00000001").hostPid).toBe(3000);
  });

  it("finalizes a task whose supervisor recorded the exit, durably, and the new runtime shows it with a quiet notice", async () => {
    const w = await world([snapshot("ba")]);
    await w.write("ba.output", "before\n");
    await w.write("ba.after-host.output", "after\n");
    await w.write("ba.exit.json", JSON.stringify(exitRecord()));
    const recovered = await w.recover();
    expect(recovered.map((t) => t.snapshot.status)).toEqual(["failed"]);
    expect(w.meta("ba")).toMatchObject({
      status: "failed",
      exitCode: 3,
      recovery: { hostEnded: "died", spilledBytes: 6 },
    });
    expect(w.meta("ba").error).toContain("its exit status was recorded by the supervisor");
    w.runtime.adopt(recovered);
    const done = await w.runtime.waitForTerminal("ba");
    expect(done.ok && done.value.notified).toBe(true);
    expect(w.delivered).toHaveLength(1);
    expect(w.delivered[0]?.triggerTurn).toBe(false); // another conversation started it
    const log = await w.runtime.readLog("ba", { maxBytes: 10_000, tail: false });
    expect(log.ok && log.value.text).toMatch(
      /^before\n\n\[pi-background-tasks: the host that started this task stopped reading here[^\n]*\]\nafter\n$/,
    );
    const tail = await w.runtime.readLog("ba", { maxBytes: 6, tail: true });
    expect(tail.ok && tail.value.text).toBe("after\n");
  });

  it("leaves the tasks of a live host, and of a live runtime of this process, alone", async () => {
    const w = await world([snapshot("ba"), snapshot("bb", { hostPid: 1000, hostStartedAt: "boot/1000" })]);
    w.probe.liveHosts.add("77@boot/77");
    w.probe.liveDirs.add(OLD);
    w.probe.tagged.set(TAG, [78]);
    expect(await w.recover()).toEqual([]);
    expect(w.meta("ba").status).toBe("running");
    expect(w.probe.stopped).toEqual([]);
  });

  it("this process takes over what its own earlier runtime left (a reload), and a reused pid is not the host", async () => {
    const w = await world([snapshot("ba", { hostPid: 1000, hostStartedAt: "boot/1000" })]);
    const recovered = await w.recover(); // the directory is no longer live: the runtime that owned it shut down
    expect(recovered.map((t) => t.snapshot.status)).toEqual(["failed"]);
    expect(w.meta("ba").error).toContain("the task is gone; exit status unknown");
    const reused = await world([snapshot("ba", { hostPid: 1000, hostStartedAt: "boot/999" })]);
    reused.probe.liveDirs.add(OLD);
    expect((await reused.recover()).map((t) => t.snapshot.status)).toEqual(["failed"]);
  });

  it("a task that is gone without a record fails with an unknown exit status", async () => {
    const w = await world([snapshot("ba")]);
    await w.recover();
    const m = w.meta("ba");
    expect(m).toMatchObject({ status: "failed", recovery: { lostOutputBytes: "unavailable" } });
    expect(m.exitCode).toBeUndefined();
  });

  it("an exit record its supervisor reserved (empty) but never wrote is no record, not a damaged one", async () => {
    const missing = await world([snapshot("ba")]);
    await missing.recover();
    const reserved = await world([snapshot("ba")]);
    await reserved.write("ba.exit.json", "");
    await reserved.recover();
    expect(reserved.meta("ba")).toEqual(missing.meta("ba"));
    const damaged = await world([snapshot("ba")]);
    await damaged.write("ba.exit.json", '{"schema_version":');
    await damaged.recover();
    expect(damaged.meta("ba").error).toContain("not complete UTF-8 JSON");
  });

  it("reattaches a running task, follows its saved output, and publishes the recorded exit once it appears", async () => {
    const w = await world([snapshot("ba")], { conversation: "conv-a" });
    w.probe.tagged.set(TAG, [78, 79]);
    const [task] = await w.recover();
    expect(task?.snapshot).toMatchObject({ status: "running", recovery: { hostEnded: "died" } });
    // This host owns it now, durably: while it lives (its runtime holds the directory), nobody else takes it over.
    expect(w.meta("ba")).toMatchObject({ status: "running", hostPid: 1000, hostStartedAt: "boot/1000" });
    w.probe.liveDirs.add(OLD);
    expect(await w.recover()).toEqual([]);
    w.runtime.adopt(task === undefined ? [] : [task]);
    await w.write("ba.after-host.output", "tick\n");
    w.clock.advance(1_000);
    await flush();
    expect(w.runtime.find("ba")).toMatchObject({
      ok: true,
      value: { status: "running", recovery: { spilledBytes: 5 } },
    });
    await w.write("ba.exit.json", JSON.stringify(exitRecord({ code: 0, spilledBytes: 5 })));
    w.probe.tagged.delete(TAG);
    w.clock.advance(1_000);
    const done = await w.runtime.waitForTerminal("ba");
    expect(done.ok && done.value).toMatchObject({ status: "completed", exitCode: 0, notified: true });
    expect(w.meta("ba")).toMatchObject({ status: "completed", exitCode: 0 });
    expect(w.delivered[0]?.triggerTurn).toBe(true); // the conversation that started it
  });

  it("bg_kill of a reattached task stops every tagged process and records it as killed", async () => {
    const w = await world([snapshot("ba")]);
    w.probe.tagged.set(TAG, [78]);
    w.probe.onStop = async () =>
      void (await w.write("ba.exit.json", JSON.stringify(exitRecord({ code: null, signal: "SIGTERM" }))));
    w.runtime.adopt(await w.recover());
    const killed = await w.runtime.kill("ba");
    expect(killed.ok && killed.value).toMatchObject({ status: "killed", killKind: "user", signal: "SIGTERM" });
    expect(w.probe.stopped).toEqual([TAG]);
    expect(w.meta("ba").status).toBe("killed");
  });

  it("a reattached task whose supervisor vanished without a record fails as unknown; its timeout still applies", async () => {
    const w = await world([snapshot("ba"), snapshot("bb", { processTag: OTHER_TAG, timeoutSeconds: 90, pid: 80 })]);
    w.probe.tagged.set(TAG, [78]);
    w.probe.tagged.set(OTHER_TAG, [80]);
    w.runtime.adopt(await w.recover());
    w.probe.tagged.delete(TAG);
    w.clock.advance(1_000);
    const gone = await w.runtime.waitForTerminal("ba");
    expect(gone.ok && gone.value.status).toBe("failed");
    expect(gone.ok && gone.value.error).toContain("exit status unknown");
    w.clock.advance(30_000);
    const timedOut = await w.runtime.waitForTerminal("bb");
    expect(timedOut.ok && timedOut.value).toMatchObject({ status: "failed", killKind: "timeout" });
    expect(w.probe.stopped).toContain(OTHER_TAG);
  });

  it("PI_BG_ORPHANS=kill stops a task that still runs and says so", async () => {
    const w = await world([snapshot("ba")], { policy: "kill" });
    w.probe.tagged.set(TAG, [78]);
    const [task] = await w.recover();
    expect(task?.snapshot.status).toBe("killed");
    expect(w.probe.stopped).toEqual([TAG]);
    expect(w.meta("ba").error).toContain("PI_BG_ORPHANS=kill");
  });

  it("at shutdown a reattached task is stopped, unless it opted into surviveReload", async () => {
    const w = await world([
      snapshot("ba"),
      snapshot("bb", { processTag: OTHER_TAG, surviveReload: true, detachedAt: 5 }),
    ]);
    w.probe.tagged.set(TAG, [78]);
    w.probe.tagged.set(OTHER_TAG, [80]);
    w.runtime.adopt(await w.recover());
    await w.runtime.shutdown();
    expect(w.meta("ba").status).toBe("killed");
    expect(w.meta("bb").status).toBe("running");
    expect(w.probe.stopped).toEqual([TAG]);
  });

  it("damaged metadata and a file that names another task are reported and left as they are", async () => {
    const w = await world([snapshot("ba"), snapshot("bc")]);
    await w.write("ba.json", '{"status": "running", "id": "ba", "schema_vers'); // torn by something other than this package
    await w.write("bc.json", JSON.stringify(snapshot("bz")));
    expect(await w.recover()).toEqual([]);
    expect(w.warnings.join("\n")).toMatch(/ba\.json was left as it is: .*metadata_malformed/);
    expect(w.warnings.join("\n")).toContain("names task bz");
  });
});
