import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  existsSync,
  readFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PruneRecord } from "../../domain/hygiene/model/prune-policy.ts";
import { MAX_PRUNE_LOG_BYTES, pruneLogPath, writePruneLog } from "../../domain/hygiene/service/prune-log.ts";
import { pruneRunDirs, type PruneConfig } from "../../domain/hygiene/service/prune-run-dirs.ts";
import { taskSnapshot } from "../../domain/tasks/model/task-snapshot.test-support.ts";
import type { TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import { NodeArtifactTree } from "./node-artifact-tree.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { NodeSurvivorProbe, processIdentity } from "./node-survivor-probe.ts";

const DAY = 86_400_000;
const NOW = Date.now();
const OLD = NOW - 10 * DAY;
let base: string;
let cwd: string;
let victim: string;
let live: ChildProcess;
let deadPid: number;

beforeAll(async () => {
  // A live Node process standing for another session's host, and a pid whose process is gone.
  live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600000)"], { stdio: "ignore" });
  await new Promise((resolve) => live.once("spawn", resolve));
  deadPid = spawnSync("true").pid ?? 0;
});
afterAll(() => void live.kill("SIGKILL"));

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "bg-prune-"));
  cwd = join(base, "project");
  victim = join(base, "victim");
  mkdirSync(victim, { recursive: true });
  writeFileSync(join(victim, "precious.txt"), "keep me");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function prune(extra: Partial<PruneConfig> = {}): Promise<PruneRecord[]> {
  return pruneRunDirs(
    {
      tree: new NodeArtifactTree(),
      files: new NodeFileCommitter(),
      probe: new NodeSurvivorProbe(),
      clock: { now: () => NOW },
    },
    { cwd, maxAgeMs: 7 * DAY, keepTaskDirs: new Set(), maxScanned: 100, maxPruned: 100, ...extra },
  );
}

/** Sets every entry under `path` (and it) to `at`, deepest first, without following links. */
function age(path: string, at = OLD): void {
  for (const name of readdirSync(path, { withFileTypes: true })) {
    if (name.isDirectory()) age(join(path, name.name), at);
    else if (name.isFile()) utimesSync(join(path, name.name), at / 1000, at / 1000);
  }
  utimesSync(path, at / 1000, at / 1000);
}

/** A task directory with one task; its recorded times and mtimes are `at` unless said otherwise. */
function taskDir(name: string, extra: Partial<TaskSnapshot> = {}, at = OLD): string {
  const dir = join(cwd, ".pi", "tasks", name);
  mkdirSync(dir, { recursive: true });
  const task = taskSnapshot("t1", "completed", {
    outputPath: `.pi/tasks/${name}/t1.output`,
    startTime: at - 1000,
    endTime: at,
    ...extra,
  });
  writeFileSync(join(dir, "t1.json"), JSON.stringify(task));
  writeFileSync(join(dir, "t1.output"), "hello\n");
  age(dir, at);
  return dir;
}

const kept = (records: readonly PruneRecord[]) =>
  records.flatMap((r) => (r.kind === "kept" ? [`${r.area}/${r.dir}: ${r.reason}`] : []));

describe("pruning run directories of ended sessions", () => {
  it("removes an old finished task directory of a dead session and says so", async () => {
    const dir = taskDir(`s1-${deadPid}`);
    const records = await prune();
    expect(records).toEqual([
      expect.objectContaining({
        kind: "pruned",
        area: "tasks",
        dir: `s1-${deadPid}`,
        entries: 3,
        bytes: expect.any(Number),
      }),
    ]);
    expect(existsSync(dir)).toBe(false);
  });

  it("a symlink inside an old dead directory (../../victim) keeps the directory; nothing outside goes", async () => {
    const dir = taskDir(`s2-${deadPid}`);
    symlinkSync("../../../../victim", join(dir, "escape"));
    mkdirSync(join(dir, "sub"));
    symlinkSync(join(victim, "precious.txt"), join(dir, "sub", "precious.txt"));
    age(dir);
    expect(kept(await prune())).toEqual([`tasks/s2-${deadPid}: unsafe_entry`]);
    expect(existsSync(join(victim, "precious.txt"))).toBe(true);
    expect(existsSync(join(dir, "t1.json"))).toBe(true);
  });

  it("a task directory that is itself a symlink is never followed", async () => {
    mkdirSync(join(cwd, ".pi", "tasks"), { recursive: true });
    writeFileSync(join(victim, "t1.json"), JSON.stringify(taskSnapshot("t1", "completed", { endTime: OLD })));
    age(victim);
    symlinkSync(victim, join(cwd, ".pi", "tasks", `s3-${deadPid}`));
    expect(kept(await prune())).toEqual([`tasks/s3-${deadPid}: unsafe_entry`]);
    expect(readdirSync(victim).sort()).toEqual(["precious.txt", "t1.json"]);
  });

  it("a FIFO in an old dead directory keeps it; the FIFO is neither opened nor removed", async () => {
    const dir = taskDir(`s4-${deadPid}`);
    execFileSync("mkfifo", [join(dir, "t1.exit.json")]);
    age(dir);
    expect(kept(await prune())).toEqual([`tasks/s4-${deadPid}: unsafe_entry`]);
    expect(existsSync(join(dir, "t1.exit.json"))).toBe(true);
  });

  it("never a live session's directory, nor a task a live host took over, nor a running (reattachable) one", async () => {
    const liveDir = taskDir(`s5-${live.pid}`, { status: "running", hostPid: live.pid ?? 0 });
    const reattached = taskDir(`s6-${deadPid}`, {
      status: "running",
      hostPid: live.pid ?? 0,
      hostStartedAt: processIdentity(live.pid ?? 0).startedAt,
    });
    const orphan = taskDir(`s7-${deadPid}`, { status: "running", hostPid: deadPid, processTag: "a".repeat(32) });
    const records = await prune();
    expect(kept(records)).toEqual([`tasks/s6-${deadPid}: running_task`, `tasks/s7-${deadPid}: running_task`]);
    for (const dir of [liveDir, reattached, orphan]) expect(existsSync(join(dir, "t1.json"))).toBe(true);
  });

  it("a recent dead session's directory stays, by its mtimes or by the times its tasks record", async () => {
    const recent = taskDir(`s8-${deadPid}`, {}, NOW - DAY);
    const recorded = taskDir(`s9-${deadPid}`, {
      recovery: { at: NOW - DAY, hostEnded: "died", spillPath: "x", spilledBytes: 0, lostOutputBytes: "unavailable" },
    });
    const records = await prune();
    expect(kept(records)).toEqual([`tasks/s9-${deadPid}: recent_task`]);
    expect(existsSync(recent) && existsSync(recorded)).toBe(true);
  });

  it("a crash's half-written temp files go from a dead session's directory; a fresh one, or a live session's, stays", async () => {
    const dead = taskDir(`s10-${deadPid}`, {}, NOW - DAY);
    const alive = taskDir(`s11-${live.pid}`, {}, NOW - DAY);
    const hourAgo = (NOW - 3_600_000) / 1000;
    for (const dir of [dead, alive]) {
      writeFileSync(join(dir, ".t1.json.0123456789ab.tmp"), "{half");
      utimesSync(join(dir, ".t1.json.0123456789ab.tmp"), hourAgo, hourAgo);
      writeFileSync(join(dir, ".t1.json.ba9876543210.tmp"), "{in progress"); // now: may still be written
      writeFileSync(join(dir, ".notes.tmp"), "the user's"); // not the committer's pattern
    }
    const records = await prune();
    expect(records).toEqual([
      { kind: "temp_removed", area: "tasks", dir: `s10-${deadPid}`, files: [".t1.json.0123456789ab.tmp"] },
    ]);
    expect(readdirSync(dead).sort()).toEqual([".notes.tmp", ".t1.json.ba9876543210.tmp", "t1.json", "t1.output"]);
    expect(readdirSync(alive)).toHaveLength(5);
  });

  it("a directory this start took tasks over from, or with unreadable state, stays", async () => {
    const adopted = taskDir(`sa-${deadPid}`);
    const broken = taskDir(`sb-${deadPid}`);
    writeFileSync(join(broken, "t1.json"), "{not json");
    age(broken);
    const records = await prune({ keepTaskDirs: new Set([adopted]) });
    expect(kept(records)).toEqual([`tasks/sa-${deadPid}: adopted_here`, `tasks/sb-${deadPid}: unreadable_state`]);
  });

  it("is bounded: past the limit the rest waits for the next start", async () => {
    for (const name of ["sc", "sd", "se"]) taskDir(`${name}-${deadPid}`);
    const records = await prune({ maxPruned: 2 });
    expect(records.filter((r) => r.kind === "pruned")).toHaveLength(2);
    expect(records).toContainEqual({ kind: "deferred", area: "tasks", count: 1 });
  });
});

describe("Fusion and delegate run directories, under the same rules", () => {
  function delegateRun(session: string, taskId: string, outcome: object, fetched: boolean): string {
    const dir = join(cwd, ".pi", "delegate", session, taskId);
    mkdirSync(join(dir, "child-session"), { recursive: true });
    writeFileSync(join(dir, "outcome.json"), JSON.stringify(outcome));
    writeFileSync(join(dir, "result.json"), "{}");
    if (fetched) writeFileSync(join(dir, "result-fetched.json"), "{}");
    const launches = join(cwd, ".pi", "delegate", "launches");
    mkdirSync(launches, { recursive: true });
    writeFileSync(join(launches, `${taskId}.json`), JSON.stringify({ v: 1, task_id: taskId, run_dir: session }));
    age(join(cwd, ".pi", "delegate", session));
    return dir;
  }

  it("an old Fusion run of a dead session goes (its result is served only to the session that ran it)", async () => {
    const dir = join(cwd, ".pi", "fusion", `s1-${deadPid}`, "run-1");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "result.json"), "{}");
    age(join(cwd, ".pi", "fusion", `s1-${deadPid}`));
    expect(await prune()).toEqual([expect.objectContaining({ kind: "pruned", area: "fusion", entries: 3 })]);
  });

  it("a delegate answer bg_result never served stays at any age; a fetched or failed one goes with its pointer", async () => {
    const unfetched = delegateRun(`s2-${deadPid}`, `d${"1".repeat(32)}`, { error: null }, false);
    delegateRun(`s3-${deadPid}`, `d${"2".repeat(32)}`, { error: null }, true);
    delegateRun(`s4-${deadPid}`, `d${"3".repeat(32)}`, { error: { code: "child_timeout" } }, false);
    const records = await prune();
    expect(kept(records)).toEqual([`delegate/s2-${deadPid}: unfetched_result`]);
    expect(records.filter((r) => r.kind === "pruned").map((r) => r.kind === "pruned" && r.dir)).toEqual([
      `s3-${deadPid}`,
      `s4-${deadPid}`,
    ]);
    expect(existsSync(unfetched)).toBe(true);
    expect(readdirSync(join(cwd, ".pi", "delegate", "launches"))).toEqual([`d${"1".repeat(32)}.json`]);
  });
});

describe("the prune log", () => {
  const record: PruneRecord = { kind: "deferred", area: "tasks", count: 1 };

  it("appends one JSON line per record under .pi/tasks (with its .gitignore), and starts over past its cap", async () => {
    const files = new NodeFileCommitter();
    expect(await writePruneLog(files, cwd, [], NOW)).toEqual({ ok: true, value: undefined });
    expect(existsSync(pruneLogPath(cwd))).toBe(false);
    await writePruneLog(files, cwd, [record, record], NOW);
    const lines = readFileSync(pruneLogPath(cwd), "utf8")
      .trim()
      .split("\n")
      .map((l: string) => JSON.parse(l) as unknown);
    expect(lines).toEqual([
      { schema_version: "pi-background-tasks.prune-record.v1", at: new Date(NOW).toISOString(), ...record },
      expect.objectContaining(record),
    ]);
    expect(existsSync(join(cwd, ".pi", "tasks", ".gitignore"))).toBe(true);
    writeFileSync(pruneLogPath(cwd), "x".repeat(MAX_PRUNE_LOG_BYTES));
    await writePruneLog(files, cwd, [record], NOW);
    const restarted = readFileSync(pruneLogPath(cwd), "utf8")
      .trim()
      .split("\n")
      .map((l: string) => JSON.parse(l) as unknown);
    expect(restarted).toEqual([
      expect.objectContaining({ kind: "log_restarted", dropped_bytes: MAX_PRUNE_LOG_BYTES }),
      expect.objectContaining(record),
    ]);
  });

  it("refuses to write through a planted link", async () => {
    mkdirSync(join(cwd, ".pi", "tasks"), { recursive: true });
    symlinkSync(join(victim, "precious.txt"), pruneLogPath(cwd));
    const written = await writePruneLog(new NodeFileCommitter(), cwd, [record], NOW);
    expect(written).toMatchObject({ ok: false, error: { code: "untrusted_file" } });
    expect(readFileSync(join(victim, "precious.txt"), "utf8")).toBe("keep me");
  });
});
