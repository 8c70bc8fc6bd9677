import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeContainerBackends } from "../../../adapters/fake/fake-container-backends.ts";
import { FakeProcessLauncher } from "../../../adapters/fake/fake-process-launcher.ts";
import { FakeSurvivorProbe } from "../../../adapters/fake/fake-survivor-probe.ts";
import { FakeTaskSupervisor } from "../../../adapters/fake/fake-task-supervisor.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import { recoverOrphans } from "./task-recovery.ts";

const ROOT = "/w/.pi/tasks";
const OLD = `${ROOT}/conv-a-77`;
const TAG = "0123456789abcdef0123456789abcdef";
const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

const containerTask = (id: string): TaskSnapshot => ({
  schema_version: "pi-background-tasks.task.v1",
  id,
  name: id,
  command: "make",
  status: "running",
  outputPath: `.pi/tasks/conv-a-77/${id}.output`,
  cwd: "/w",
  startTime: 1_000,
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
  container: { runOn: "docker", image: "node:22", imageId: "sha256:abc", engine: "fake://engine", tree: "bind" },
});

async function world(
  log: string,
  code: number | undefined,
  policy: "reattach" | "kill" = "reattach",
  present = true,
  output: { file: string; capBytes: number; remote?: boolean; reachable?: boolean } = {
    file: "the host had this|",
    capBytes: 1 << 20,
  },
) {
  const files = new InMemoryFileCommitter();
  const probe = new FakeSurvivorProbe();
  const clock = new FakeClock();
  const warnings: string[] = [];
  const base = containerTask("bd1");
  const task = { ...base, output: { ...base.output, capBytes: output.capBytes } };
  await files.ensureDir(OLD);
  await files.replaceAtomic(`${OLD}/bd1.json`, encode(JSON.stringify(task)));
  await files.replaceAtomic(`${OLD}/bd1.output`, encode(output.file));
  probe.dirs = [{ dir: OLD, metadataFiles: [`${OLD}/bd1.json`] }];
  if (code === undefined && output.remote !== true) probe.tagged.set(TAG, [78]); // its processes are still there
  const supervisor = new FakeTaskSupervisor(
    new SeededRandomSource(1),
    files,
    clock,
    new FakeProcessLauncher({ clock }),
  );
  const containers = new FakeContainerBackends({}, supervisor, output.reachable ?? true, files);
  if (present) containers.orphans.set("bd1", { tag: TAG, log, ...(code === undefined ? {} : { code }) });
  const recovered = await recoverOrphans(
    { files, probe, clock, warn: (m) => warnings.push(m), containers },
    { root: ROOT, policy, killGraceMs: 3_000, pollMs: 1_000, conversation: "conv-b" },
  );
  const meta = () => JSON.parse(decode(files.contents(`${OLD}/bd1.json`))) as TaskSnapshot;
  return { files, probe, clock, containers, recovered, meta, warnings };
}

const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

describe("recovering a container task after its host died", () => {
  it("a container that ended meanwhile: finalized from the engine's exit code, the rest of its log kept, the container removed", async () => {
    const w = await world("the host had this|and this came after\n", 4);
    expect(w.recovered.map((t) => t.snapshot.status)).toEqual(["failed"]);
    expect(w.meta()).toMatchObject({
      status: "failed",
      exitCode: 4,
      recovery: { hostEnded: "died", spilledBytes: 20 },
    });
    expect(decode(w.files.contents(`${OLD}/bd1.after-host.output`))).toBe("and this came after\n");
    expect(w.containers.orphans.has("bd1")).toBe(false);
  });

  it("a container still running: reattached, and finalized from its exit code once it ends", async () => {
    const w = await world("the host had this|later\n", undefined);
    const [task] = w.recovered;
    expect(task?.snapshot.status).toBe("running");
    task?.begin(
      async (s) => s,
      () => undefined,
    );
    w.probe.tagged.delete(TAG); // its processes are gone before its log and code are saved
    w.clock.advance(1_000);
    await flush();
    expect(task?.snapshot.status).toBe("running"); // not "exit status unknown": the engine has not answered yet
    w.containers.end("bd1", 0);
    await flush();
    w.clock.advance(1_000);
    await flush();
    expect(w.meta()).toMatchObject({ status: "completed", exitCode: 0, recovery: { spilledBytes: 6 } });
    expect(w.containers.orphans.has("bd1")).toBe(false);
  });

  it("a container that is gone: said in a warning, and the task is finalized with its exit status unknown", async () => {
    const w = await world("x", 0, "reattach", false);
    expect(w.warnings.join("\n")).toContain(
      "its container could not be taken over: no container labelled with task bd1",
    );
    expect(w.meta()).toMatchObject({ status: "failed" });
    expect(w.meta().error).toContain("unknown");
  });

  it("PI_BG_ORPHANS=kill: the container is stopped through the engine, its log kept, and it is removed", async () => {
    const w = await world("the host had this|more\n", undefined, "kill");
    expect(w.recovered.map((t) => t.snapshot.status)).toEqual(["killed"]);
    expect(w.meta()).toMatchObject({ status: "killed", recovery: { spilledBytes: 5 } });
    expect(w.containers.orphans.has("bd1")).toBe(false);
  });

  it("bg_kill of a reattached container task stops the container and records how it ended", async () => {
    const w = await world("the host had this|", undefined);
    const [task] = w.recovered;
    task?.begin(
      async (s) => s,
      () => undefined,
    );
    const ended = await task?.stop("user");
    expect(ended).toMatchObject({ status: "killed", killKind: "user" });
    expect(w.containers.orphans.has("bd1")).toBe(false);
  });

  it("output past the cap: the engine's log replays everything after the head once, and the count is the log's", async () => {
    // cap 80: a head of 20 bytes, a marker, and a ring the dead host left out of order
    const log = `${"h".repeat(20)}${"r".repeat(150)}end\n`;
    const file = `${"h".repeat(20)}${"?".repeat(60)}`;
    const w = await world(log, 0, "reattach", true, { file, capBytes: 80 });
    expect(decode(w.files.contents(`${OLD}/bd1.after-host.output`))).toBe(log.slice(20, 100));
    expect(w.meta()).toMatchObject({
      status: "completed",
      bytesWritten: log.length,
      output: { producedBytes: log.length, keptBytes: 100 },
      recovery: { spilledBytes: 80, lostOutputBytes: log.length - 100 },
    });
    expect(w.meta().error).not.toContain("still in the pipe");
  });

  it("a container on a remote engine: its processes are not in this host's table, and the engine's word that it runs is enough", async () => {
    const w = await world("the host had this|later\n", undefined, "reattach", true, {
      file: "the host had this|",
      capBytes: 1 << 20,
      remote: true,
    });
    expect(w.recovered.map((t) => t.snapshot.status)).toEqual(["running"]);
  });

  it("a remote engine this host cannot reach: the task is left as it is (still running) for a session that can, never finalized blind", async () => {
    const w = await world("x", undefined, "reattach", true, {
      file: "",
      capBytes: 1 << 20,
      remote: true,
      reachable: false,
    });
    expect(w.recovered).toEqual([]);
    expect(w.meta().status).toBe("running");
    expect(w.warnings.join("\n")).toContain("left as it is until a session reaches fake://engine");
  });
});
