import { execFileSync } from "node:child_process";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FakeClock } from "../fake/fake-clock.ts";
import { FakeProcessLauncher } from "../fake/fake-process-launcher.ts";
import type { FakeScript } from "../fake/fake-process.ts";
import { SeededRandomSource } from "../fake/seeded-random-source.ts";
import { ok } from "../../domain/shared/model/result.ts";
import { EXIT_RECORD_SCHEMA } from "../../domain/tasks/model/exit-record.ts";
import type { TaskNotification } from "../../domain/tasks/model/notification.ts";
import type { TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import { taskSnapshot } from "../../domain/tasks/model/task-snapshot.test-support.ts";
import { recoverOrphans } from "../../domain/tasks/service/task-recovery.ts";
import { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";
import { normalizeRunArguments } from "../../domain/tasks/model/run-request.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { NodeSurvivorProbe } from "./node-survivor-probe.ts";

// Issue 17, item 3: files planted under `.pi/tasks` after a crash. Each shape is a task an ended host left
// "running" whose host is dead; recovery must refuse it (untrusted_file, naming the path) and change nothing:
// no adoption, no notice, no file written or removed, and the foreign file's bytes never read.

const CANARY = "CANARY-SECRET-BYTES";
const SESSION = "conv-a-1";
const ID = "ba";
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function running(overrides: Partial<TaskSnapshot> = {}): TaskSnapshot {
  return taskSnapshot(ID, "running", {
    outputPath: `.pi/tasks/${SESSION}/${ID}.output`,
    output: { producedBytes: 0, keptBytes: 0, elidedBytes: 0, capBytes: 1 << 20, capAction: "keep_head_and_tail" },
    // pid 1 runs, but not with this start stamp: the host is dead.
    hostPid: 1,
    hostStartedAt: "planted/never",
    processTag: "0123456789abcdef0123456789abcdef",
    ...overrides,
  });
}

const exitRecordText = (): string =>
  JSON.stringify({
    schema_version: EXIT_RECORD_SCHEMA,
    code: 0,
    signal: null,
    endedAt: Date.UTC(2025, 0, 1),
    hostGone: true,
    spilledBytes: 0,
    lostOutputBytes: 0,
    note: CANARY,
  });

interface Layout {
  readonly project: string;
  readonly root: string;
  readonly dir: string;
  /** A file outside the project holding the canary bytes. */
  readonly canary: string;
  readonly outside: string;
}

function layout(): Layout {
  const base = mkdtempSync(join(tmpdir(), "planted-"));
  roots.push(base);
  const project = join(base, "project");
  const root = join(project, ".pi", "tasks");
  const dir = join(root, SESSION);
  const outside = join(base, "outside");
  mkdirSync(dir, { recursive: true });
  mkdirSync(outside);
  const canary = join(outside, "canary.txt");
  writeFileSync(canary, `${CANARY}\n`);
  return { project, root, dir, canary, outside };
}

/** Every entry under `path` with its kind and bytes (files), to show nothing changed. */
function tree(path: string): string[] {
  return readdirSync(path, { recursive: true, encoding: "utf8" })
    .sort()
    .map((name) => {
      const info = lstatSync(join(path, name));
      const kind = info.isSymbolicLink() ? "link" : info.isFIFO() ? "fifo" : info.isDirectory() ? "dir" : "file";
      return kind === "file" ? `${name}:${readFileSync(join(path, name), "latin1")}` : `${name}:${kind}`;
    });
}

function runtimeIn(l: Layout, clock: FakeClock, warnings: string[], script: FakeScript = {}) {
  const delivered: TaskNotification[] = [];
  const runtime = new TaskRuntime(
    {
      launcher: new FakeProcessLauncher({ clock, script: () => script }),
      files: new NodeFileCommitter(),
      clock,
      random: new SeededRandomSource(1),
      notifier: { deliver: async (n) => (delivered.push(n), ok(undefined)) },
      warn: (m) => warnings.push(m),
    },
    {
      cwd: l.project,
      taskDir: join(l.root, "conv-b-2"),
      displayDir: ".pi/tasks/conv-b-2",
      env: {},
      outputCapBytes: 1 << 20,
      killGraceMs: 100,
      retainTasks: 100,
    },
  );
  return { runtime, delivered };
}

async function recoverIn(l: Layout) {
  const files = new NodeFileCommitter();
  const clock = new FakeClock();
  const warnings: string[] = [];
  const recovered = await recoverOrphans(
    { files, probe: new NodeSurvivorProbe(), clock, warn: (m) => warnings.push(m) },
    { root: l.root, policy: "reattach", killGraceMs: 100, pollMs: 1_000, conversation: "conv-a" },
  );
  const { runtime, delivered } = runtimeIn(l, clock, warnings);
  runtime.adopt(recovered);
  for (const task of recovered) await runtime.waitForTerminal(task.snapshot.id);
  const log = recovered.length === 0 ? undefined : await runtime.readLog(ID, { maxBytes: 10_000, tail: false });
  const seen = [...delivered.map((n) => n.content), log?.ok === true ? log.value.text : ""].join("\n");
  return { recovered, warnings, delivered, seen };
}

const meta = (l: Layout, task: TaskSnapshot = running()) =>
  writeFileSync(join(l.dir, `${ID}.json`), JSON.stringify(task));
const mkfifo = (path: string) => execFileSync("mkfifo", [path]);

/** The planted shapes: what each puts where. SECURITY.md cites how many there are. */
const SHAPES: ReadonlyArray<{ readonly name: string; readonly plant: (l: Layout) => string }> = [
  { name: "output file: symlink to a file outside", plant: (l) => (meta(l), link(l.canary, l.dir, `${ID}.output`)) },
  { name: "output file: hard link to a file outside", plant: (l) => (meta(l), hard(l.canary, l.dir, `${ID}.output`)) },
  { name: "output file: FIFO", plant: (l) => (meta(l), fifo(l.dir, `${ID}.output`)) },
  { name: "output file: directory", plant: (l) => (meta(l), directory(l.dir, `${ID}.output`)) },
  {
    name: "supervisor's spill file: symlink to a file outside",
    plant: (l) => (meta(l), link(l.canary, l.dir, `${ID}.after-host.output`)),
  },
  {
    name: "exit record: symlink to a record outside",
    plant: (l) => {
      meta(l);
      writeFileSync(join(l.outside, "exit.json"), exitRecordText());
      return link(join(l.outside, "exit.json"), l.dir, `${ID}.exit.json`);
    },
  },
  { name: "exit record: FIFO", plant: (l) => (meta(l), fifo(l.dir, `${ID}.exit.json`)) },
  {
    name: "metadata: symlink to metadata outside",
    plant: (l) => {
      writeFileSync(join(l.outside, "meta.json"), JSON.stringify(running()));
      writeFileSync(join(l.dir, `${ID}.output`), "own output\n");
      return link(join(l.outside, "meta.json"), l.dir, `${ID}.json`);
    },
  },
  {
    name: "metadata: hard link to metadata outside",
    plant: (l) => {
      writeFileSync(join(l.outside, "meta.json"), JSON.stringify(running()));
      writeFileSync(join(l.dir, `${ID}.output`), "own output\n");
      return hard(join(l.outside, "meta.json"), l.dir, `${ID}.json`);
    },
  },
  { name: "metadata: FIFO", plant: (l) => fifo(l.dir, `${ID}.json`) },
  {
    name: "task directory: symlink to a directory outside",
    plant: (l) => {
      rmSync(l.dir, { recursive: true });
      writeFileSync(join(l.outside, `${ID}.json`), JSON.stringify(running()));
      symlinkSync(l.canary, join(l.outside, `${ID}.output`));
      writeFileSync(join(l.outside, `${ID}.after-host.output`), `${CANARY}\n`);
      symlinkSync(l.outside, l.dir);
      return join(l.dir, `${ID}.json`);
    },
  },
  {
    name: "metadata whose outputPath points at a file outside",
    plant: (l) => {
      meta(l, running({ outputPath: l.canary }));
      writeFileSync(join(l.dir, `${ID}.output`), "own output\n");
      return join(l.dir, `${ID}.json`);
    },
  },
];

function link(target: string, dir: string, name: string): string {
  symlinkSync(target, join(dir, name));
  return join(dir, name);
}
function hard(target: string, dir: string, name: string): string {
  linkSync(target, join(dir, name));
  return join(dir, name);
}
function fifo(dir: string, name: string): string {
  mkfifo(join(dir, name));
  return join(dir, name);
}
function directory(dir: string, name: string): string {
  mkdirSync(join(dir, name));
  return join(dir, name);
}

describe("bg_logs of this session's task", () => {
  it("refuses an output file swapped for a symlink after the task ran (untrusted_file naming it)", async () => {
    const l = layout();
    const { runtime } = runtimeIn(l, new FakeClock(), [], { stdout: ["own output\n"], exit: { code: 0 } });
    const args = normalizeRunArguments({ name: "t", command: "cmd", isAgent: false });
    if (!args.ok) throw new Error(args.error.message);
    const started = await runtime.start(args.value);
    if (!started.ok) throw new Error(started.error.message);
    await runtime.waitForTerminal(started.value.id);
    const output = join(l.root, "conv-b-2", `${started.value.id}.output`);
    const own = await runtime.readLog(started.value.id, { maxBytes: 10_000, tail: false });
    expect(own.ok && own.value.text).toBe("own output\n");
    rmSync(output);
    symlinkSync(l.canary, output);
    const log = await runtime.readLog(started.value.id, { maxBytes: 10_000, tail: false });
    expect(log.ok ? log.value.text : [log.error.code, log.error.message.includes(output)]).toEqual([
      "untrusted_file",
      true,
    ]);
  });
});

describe("recovery refuses planted task files", () => {
  it.each(SHAPES.map((shape) => [shape.name, shape] as const))("%s", async (_name, shape) => {
    const l = layout();
    const planted = shape.plant(l);
    const before = { project: tree(l.project), outside: tree(l.outside) };
    const { recovered, warnings, delivered, seen } = await recoverIn(l);
    expect(seen).not.toContain(CANARY);
    expect(recovered).toEqual([]);
    expect(delivered).toEqual([]);
    expect(warnings.some((w) => w.includes("untrusted_file") && w.includes(planted))).toBe(true);
    expect({ project: tree(l.project), outside: tree(l.outside) }).toEqual(before);
  });

  it("counts the shapes it tries", () => {
    expect(SHAPES).toHaveLength(12);
  });

  it("still takes over an ordinary task (the control case)", async () => {
    const l = layout();
    meta(l);
    writeFileSync(join(l.dir, `${ID}.output`), "own output\n");
    const { recovered, warnings, delivered, seen } = await recoverIn(l);
    expect(warnings.filter((w) => w.includes("untrusted_file"))).toEqual([]);
    expect(recovered.map((t) => t.snapshot.status)).toEqual(["failed"]);
    expect(delivered).toHaveLength(1);
    expect(seen).toContain("own output");
  });
});
