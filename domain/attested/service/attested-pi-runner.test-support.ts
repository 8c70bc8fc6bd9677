import { createHash } from "node:crypto";
import { expect } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher, type FakeScript } from "../../../adapters/fake/fake-process-launcher.ts";
import { cleanWorktree, FakeWorktreeInspector } from "../../../adapters/fake/fake-worktree-inspector.ts";
import { InMemoryFileCommitter, type PlantedShape } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { WorktreeError, WorktreeState } from "../../../ports/worktree-inspector.ts";
import { ok } from "../../shared/model/result.ts";
import { TaskRuntime } from "../../tasks/service/task-runtime.ts";
import { normalizeAttestedRunArguments } from "../model/attested-arguments.ts";
import { credentialClassOf } from "../model/credential-class.ts";
import { AttestedPiRunner, type AttestedRunnerConfig } from "./attested-pi-runner.ts";

// Shared by the AttestedPiRunner tests: a runner on fakes whose scripted child writes (or leaves) the report.

export const CWD = "/w";
export const DIR = "/w/.pi/tasks/s-1";
const line = (event: unknown) => `${JSON.stringify(event)}\n`;
export const reply = (stopReason: string, extra: Record<string, unknown> = {}) =>
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
export const EVENTS = [
  line({ type: "session", version: 3, id: "sess-9" }),
  line({ type: "agent_start" }),
  reply("stop"),
  line({ type: "agent_end", messages: [] }),
];
export const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
export const text = (bytes: Uint8Array | "deferred" | undefined) =>
  Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array()).toString("utf8");

export interface Options {
  readonly script?: FakeScript;
  readonly worktree?: readonly (WorktreeState | WorktreeError)[];
  /** What the child leaves at r.md (null: nothing); `planted` puts something other than a regular file there. */
  readonly report?: { readonly real: string; readonly content: string; readonly planted?: PlantedShape } | null;
  /** What already stood at r.md before the run (a tracked file). */
  readonly reportBefore?: string;
  readonly piLaunch?: AttestedRunnerConfig["piLaunch"];
  readonly wrapFiles?: (files: InMemoryFileCommitter) => FileCommitter;
}

export async function setup(options: Options = {}) {
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

export function request(overrides: Record<string, unknown> = {}) {
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

export const CREDENTIAL = credentialClassOf("scripted", false);

export async function runToEnd(env: Awaited<ReturnType<typeof setup>>, overrides: Record<string, unknown> = {}) {
  const started = await env.runner.start(request(overrides), CREDENTIAL);
  if (!started.ok) throw new Error(started.error.message);
  const done = await env.runtime.waitForTerminal(started.value.id);
  if (!done.ok) throw new Error(done.error.message);
  return done.value;
}

/** A run that fails as `error` says: an ordinary failed task with its raw evidence and no sidecar. */
export async function expectFailedWithEvidenceOnly(options: Options, error: RegExp): Promise<void> {
  const env = await setup(options);
  const done = await runToEnd(env);
  expect(done.status).toBe("failed");
  expect(done.error).toMatch(error);
  expect(done.attestationPath).toBeUndefined();
  expect(env.memory.contents(`${DIR}/${done.id}.attestation.json`)).toBeUndefined();
  expect(env.memory.contents(`${DIR}/${done.id}.pi-events.jsonl`)).toBeDefined();
  expect(JSON.parse(text(env.memory.contents(`${DIR}/${done.id}.json`))).status).toBe("failed");
}
