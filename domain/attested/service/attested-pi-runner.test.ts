import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher, type FakeScript } from "../../../adapters/fake/fake-process-launcher.ts";
import { cleanWorktree, FakeWorktreeInspector } from "../../../adapters/fake/fake-worktree-inspector.ts";
import { InMemoryFileCommitter, type PlantedShape } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { WorktreeError, WorktreeState } from "../../../ports/worktree-inspector.ts";
import { err, ok } from "../../shared/model/result.ts";
import { TaskRuntime } from "../../tasks/service/task-runtime.ts";
import { normalizeAttestedRunArguments } from "../model/attested-arguments.ts";
import { credentialClassOf } from "../model/credential-class.ts";
import { verifyAttestation } from "../model/pi-attestation.ts";
import { AttestedPiRunner, type AttestedRunnerConfig } from "./attested-pi-runner.ts";

const CWD = "/w";
const DIR = "/w/.pi/tasks/s-1";
const line = (event: unknown) => `${JSON.stringify(event)}\n`;
const reply = (stopReason: string, extra: Record<string, unknown> = {}) =>
  line({
    type: "message_end",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "wrote the report" }],
      api: "openai-completions",
      provider: "scripted",
      model: "inner",
      stopReason,
      usage: { input: 50, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 60, cost: { total: 0.01 } },
      ...extra,
    },
  });
const EVENTS = [
  line({ type: "session", version: 3, id: "sess-9" }),
  line({ type: "agent_start" }),
  reply("stop"),
  line({ type: "agent_end", messages: [] }),
];
const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const text = (bytes: Uint8Array | "deferred" | undefined) =>
  Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array()).toString("utf8");

interface Options {
  readonly script?: FakeScript;
  readonly worktree?: readonly (WorktreeState | WorktreeError)[];
  /** What the child leaves at r.md (null: nothing); `planted` puts something other than a regular file there. */
  readonly report?: { readonly real: string; readonly content: string; readonly planted?: PlantedShape } | null;
  /** What already stood at r.md before the run (a tracked file). */
  readonly reportBefore?: string;
  readonly piLaunch?: AttestedRunnerConfig["piLaunch"];
  readonly wrapFiles?: (files: InMemoryFileCommitter) => FileCommitter;
}

async function setup(options: Options = {}) {
  const clock = new FakeClock();
  const memory = new InMemoryFileCommitter();
  const files = options.wrapFiles?.(memory) ?? memory;
  const worktree = new FakeWorktreeInspector(...(options.worktree ?? [cleanWorktree(CWD)]));
  const report = options.report === undefined ? { real: `${CWD}/r.md`, content: "# report\n" } : options.report;
  await memory.ensureDir(CWD);
  if (report !== null) await memory.ensureDir(report.real.slice(0, report.real.lastIndexOf("/")));
  if (options.reportBefore !== undefined) {
    worktree.realpaths.set(`${CWD}/r.md`, `${CWD}/r.md`);
    await memory.replaceAtomic(`${CWD}/r.md`, new TextEncoder().encode(options.reportBefore));
  }
  // The child writes the report while it runs: the in-memory write lands at once.
  const writeReport = () => {
    if (report === null) return;
    worktree.realpaths.set(`${CWD}/r.md`, report.real);
    void memory.replaceAtomic(report.real, new TextEncoder().encode(report.content));
    if (report.planted !== undefined) memory.plant(report.real, report.planted);
  };
  const launcher = new FakeProcessLauncher({
    clock,
    script: () => (writeReport(), options.script ?? { stdout: EVENTS, stderr: ["a warning\n"], exit: { code: 0 } }),
  });
  const notices: unknown[] = [];
  const random = new SeededRandomSource(11);
  const runtime = new TaskRuntime(
    {
      launcher,
      files,
      clock,
      random,
      notifier: { deliver: async (n) => (notices.push(n), ok(undefined)) },
      warn: () => undefined,
    },
    {
      cwd: CWD,
      taskDir: DIR,
      displayDir: ".pi/tasks/s-1",
      env: { HOST: "env" },
      outputCapBytes: 1 << 20,
      killGraceMs: 3000,
      retainTasks: 100,
    },
  );
  const config: AttestedRunnerConfig = {
    cwd: CWD,
    taskDir: DIR,
    displayDir: ".pi/tasks/s-1",
    piLaunch: options.piLaunch ?? { file: "/usr/bin/node", args: ["/pi/cli.js"] },
    childEnv: { CHILD: "env" },
    windows: new Map([["scripted/inner", 1000]]),
  };
  const runner = new AttestedPiRunner({ runtime, files, random, worktree }, config);
  return { launcher, memory, worktree, runtime, runner, notices };
}

function request(overrides: Record<string, unknown> = {}) {
  const r = normalizeAttestedRunArguments({
    name: "review",
    provider: "scripted",
    model: "inner",
    prompt: "Write r.md [[usage 50 10]]",
    reportPath: "r.md",
    ...overrides,
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const CREDENTIAL = credentialClassOf("scripted", false);

async function runToEnd(env: Awaited<ReturnType<typeof setup>>, overrides: Record<string, unknown> = {}) {
  const started = await env.runner.start(request(overrides), CREDENTIAL);
  if (!started.ok) throw new Error(started.error.message);
  const done = await env.runtime.waitForTerminal(started.value.id);
  if (!done.ok) throw new Error(done.error.message);
  return done.value;
}

describe("AttestedPiRunner: a successful run", () => {
  it("spawns one direct pi child with the prompt on stdin and writes a verifiable sidecar last", async () => {
    const env = await setup();
    const done = await runToEnd(env, { extraPiArgs: ["--no-session"], thinking: "low" });
    expect(done.id).toMatch(/^b[0-9a-f]{32}$/);
    expect(done).toMatchObject({
      status: "completed",
      notifyOnCompletion: false,
      triggerOnCompletion: false,
      attestationPath: `.pi/tasks/s-1/${done.id}.attestation.json`,
    });
    expect(done.attestedPi).toMatchObject({
      sessionId: "sess-9",
      finalStopReason: "stop",
      authClass: "api-key-or-local",
      reportPath: "r.md",
    });
    expect(done.tokenUsage).toMatchObject({ input: 50, output: 10 });
    expect(env.launcher.launches).toHaveLength(1);
    const spec = env.launcher.launches[0];
    expect(spec?.command).toEqual({
      kind: "argv",
      file: "/usr/bin/node",
      args: [
        "/pi/cli.js",
        "--mode",
        "json",
        "--provider",
        "scripted",
        "--model",
        "inner",
        "--thinking",
        "low",
        "--no-session",
      ],
    });
    expect(spec?.env).toEqual({ CHILD: "env" });
    expect(text(spec?.stdin)).toBe("Write r.md [[usage 50 10]]");
    expect(env.notices).toEqual([]);

    const file = (suffix: string) => env.memory.contents(`${DIR}/${done.id}${suffix}`);
    expect(text(file(".pi-events.jsonl"))).toBe(EVENTS.join(""));
    expect(text(file(".stderr"))).toBe("a warning\n");
    expect(text(file(".output"))).toContain("wrote the report\n");
    const sidecar = verifyAttestation(text(file(".attestation.json")));
    if (!sidecar.ok) throw new Error(sidecar.error.message);
    const a = sidecar.value;
    expect(a.locator.task_id).toBe(done.id);
    expect(a.sources.metadata.sha256).toBe(sha(file(".json") ?? new Uint8Array()));
    expect(JSON.parse(text(file(".json")))).toMatchObject({
      status: "completed",
      attestationPath: done.attestationPath,
    });
    expect(a.artifacts.events).toEqual({
      path: `.pi/tasks/s-1/${done.id}.pi-events.jsonl`,
      bytes: Buffer.byteLength(EVENTS.join("")),
      sha256: sha(EVENTS.join("")),
    });
    expect(a.artifacts.prompt.sha256).toBe(sha("Write r.md [[usage 50 10]]"));
    expect(a.artifacts.report).toEqual({ path: "r.md", bytes: 9, sha256: sha("# report\n") });
    expect(a.artifacts.output.sha256).toBe(sha(file(".output") ?? new Uint8Array()));
    expect(a.invocation).toMatchObject({
      session_id: "sess-9",
      argv: ["pi", "--mode", "json", "--provider", "scripted", "--model", "inner", "--thinking", "low", "--no-session"],
      cwd_realpath: CWD,
      auth_class: "api-key-or-local",
      final_stop_reason: "stop",
      shell: false,
    });
    expect(a.authority).toMatchObject({
      repo_root_realpath: CWD,
      start: { head: "a".repeat(40) },
      finish: { head: "a".repeat(40) },
      allowed_change: "r.md",
    });
    expect(env.worktree.inspected).toEqual([CWD, CWD]);
  });
});

describe("AttestedPiRunner: refusals start nothing and write nothing", () => {
  it.each([
    [
      "a dirty worktree",
      { worktree: [{ ...cleanWorktree(CWD), porcelain: "?? notes.txt\0" }] },
      "attested_worktree_dirty",
    ],
    [
      "no Git worktree",
      { worktree: [{ code: "not_a_git_worktree", message: "/w is not inside a Git worktree" } as WorktreeError] },
      "attested_git_unavailable",
    ],
    ["no Pi CLI", { piLaunch: "no Pi package found" }, "pi_cli_not_found"],
  ] as const)("%s", async (_label, options, code) => {
    const env = await setup(options);
    const started = await env.runner.start(request(), CREDENTIAL);
    expect(started.ok ? "started" : started.error.code).toBe(code);
    expect(started.ok ? "" : started.error.message).toContain("Nothing was started or written");
    expect(env.launcher.launches).toHaveLength(0);
    expect(env.memory.listDir(DIR) ?? []).toEqual([]);
  });

  it("a tracked report the run rewrote passes", async () => {
    const env = await setup({ reportBefore: "# old report\n" });
    expect((await runToEnd(env)).status).toBe("completed");
  });

  it("a report that exists but cannot be read at start", async () => {
    const env = await setup({ reportBefore: "# old report\n" });
    env.memory.failNext("size", "EACCES");
    const started = await env.runner.start(request(), CREDENTIAL);
    expect(started.ok ? "started" : started.error.code).toBe("attested_report_unreadable");
    expect(started.ok ? "" : started.error.message).toContain("Nothing was started or written");
    expect(env.launcher.launches).toHaveLength(0);
  });

  it("the package's own task artifacts do not make the worktree dirty", async () => {
    const env = await setup({ worktree: [{ ...cleanWorktree(CWD), porcelain: "?? .pi/tasks/s-0/b1.output\0" }] });
    expect((await runToEnd(env)).status).toBe("completed");
  });
});

describe("AttestedPiRunner: a failed run is an ordinary failed task with its evidence and no sidecar", () => {
  const moved: WorktreeState = { ...cleanWorktree(CWD), head: "d".repeat(40) };
  const events = (...lines: string[]) => ({ stdout: lines, exit: { code: 0 } });
  it.each([
    [
      "a failed model call although pi exited 0",
      {
        script: events(
          EVENTS[0] ?? "",
          EVENTS[1] ?? "",
          reply("error", { errorMessage: "400 scripted" }),
          EVENTS[3] ?? "",
        ),
      },
      /stopReason was error: 400 scripted \(attested_stop_reason_not_stop\)/,
    ],
    ["two sessions", { script: events(EVENTS[0] ?? "", ...EVENTS) }, /attested_session_not_unique/],
    ["a non-zero exit", { script: { stdout: EVENTS, exit: { code: 3 } } }, /^Exited with code 3/],
    ["HEAD moving", { worktree: [cleanWorktree(CWD), moved] }, /attested_git_head_moved/],
    [
      "another file changing",
      { worktree: [cleanWorktree(CWD), { ...cleanWorktree(CWD), porcelain: "?? r.md\0 M src/x.ts\0" }] },
      /beyond the report: src\/x\.ts \( M\) \(attested_worktree_dirty_at_finish\)/,
    ],
    ["a missing report", { report: null }, /attested_report_missing/],
    [
      "a report symlinked outside the worktree",
      { report: { real: "/etc/r.md", content: "x" } },
      /attested_report_outside_worktree/,
    ],
    [
      "a tracked report the run left unchanged",
      { reportBefore: "# old report\n", report: { real: `${CWD}/r.md`, content: "# old report\n" } },
      /the report r\.md was not created or changed by this run \(attested_report_not_written\)/,
    ],
    [
      "a report that is a symlink to another file in the worktree",
      { report: { real: `${CWD}/notes.md`, content: "x" } },
      /attested_report_not_regular_file/,
    ],
    [
      "a report planted as a hard link",
      { report: { real: `${CWD}/r.md`, content: "x", planted: "hard_link" } },
      /attested_report_not_regular_file/,
    ],
    [
      "a report planted as a FIFO",
      { report: { real: `${CWD}/r.md`, content: "x", planted: "fifo" } },
      /attested_report_not_regular_file/,
    ],
  ] as const)("%s", async (_label, options, error) => {
    const env = await setup(options);
    const done = await runToEnd(env);
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(error);
    expect(done.attestationPath).toBeUndefined();
    expect(env.memory.contents(`${DIR}/${done.id}.attestation.json`)).toBeUndefined();
    expect(env.memory.contents(`${DIR}/${done.id}.pi-events.jsonl`)).toBeDefined();
    expect(JSON.parse(text(env.memory.contents(`${DIR}/${done.id}.json`))).status).toBe("failed");
  });

  it("a sidecar that cannot be written fails the task and the metadata says so", async () => {
    const failingSidecar = (memory: InMemoryFileCommitter): FileCommitter => ({
      ensureDir: (p) => memory.ensureDir(p),
      createExclusive: (p) => memory.createExclusive(p),
      appendDurable: (p, b) => memory.appendDurable(p, b),
      readRange: (p, o, l) => memory.readRange(p, o, l),
      size: (p) => memory.size(p),
      replaceAtomic: async (p, b) =>
        p.endsWith(".attestation.json")
          ? err({ code: "io_failed", path: p, osCode: "ENOSPC", message: "disk full" })
          : memory.replaceAtomic(p, b),
    });
    const env = await setup({ wrapFiles: failingSidecar });
    const done = await runToEnd(env);
    expect(done).toMatchObject({ status: "failed" });
    expect(done.error).toMatch(/sidecar could not be written \(ENOSPC\)/);
    const meta = JSON.parse(text(env.memory.contents(`${DIR}/${done.id}.json`)));
    expect(meta).toMatchObject({ status: "failed" });
    expect(meta.attestationPath).toBeUndefined();
  });
});
