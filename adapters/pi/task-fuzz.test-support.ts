import type { ExtensionContext, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { expect } from "vitest";
import { FakeProcessLauncher } from "../fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../fake/seeded-random-source.ts";
import { ok } from "../../domain/shared/model/result.ts";
import { normalizeRunArguments } from "../../domain/tasks/model/run-request.ts";
import { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";

// Shared by the task tool and task command fuzz tests: a runtime world on the fakes with one running and
// one finished task, its footprint, the task-id placeholders, and a call that fails a hang or an untyped throw.

const TASK_DIR = "/w/.pi/tasks/s";
const HANG_MS = 5_000;
export const RUNS = 150;
export const RUNNING = "@running";
export const FINISHED = "@finished";

export interface World {
  readonly runtime: TaskRuntime;
  readonly launcher: FakeProcessLauncher;
  readonly files: InMemoryFileCommitter;
  readonly ids: Readonly<Record<string, string>>;
}

/** A fresh runtime on the fakes with one running and one finished task, all writes settled. */
export async function world(): Promise<World> {
  const launcher = new FakeProcessLauncher({
    script: (spec) =>
      spec.command.kind === "shell" && spec.command.command === "serve" ? {} : { stdout: ["out\n"], exit: { code: 0 } },
  });
  const files = new InMemoryFileCommitter();
  const runtime = new TaskRuntime(
    {
      launcher,
      files,
      clock: systemClock,
      random: new SeededRandomSource(11),
      notifier: { deliver: async () => ok(undefined) },
      warn: () => undefined,
    },
    {
      cwd: "/w",
      taskDir: TASK_DIR,
      displayDir: ".pi/tasks/s",
      env: {},
      outputCapBytes: 4096,
      killGraceMs: 50,
      retainTasks: 100,
    },
  );
  const start = async (command: string) => {
    const request = normalizeRunArguments({ command, isAgent: false });
    const started = request.ok ? await runtime.start(request.value) : undefined;
    if (started === undefined || !started.ok) throw new Error("setup failed");
    return started.value.id;
  };
  const running = await start("serve");
  const finished = await start("echo done");
  await runtime.waitForTerminal(finished);
  await settle();
  return { runtime, launcher, files, ids: { [RUNNING]: running, [FINISHED]: finished } };
}

const systemClock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  after: (ms: number, callback: () => void) => {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
  every: (ms: number, callback: () => void) => {
    const timer = setInterval(callback, ms);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  },
};

export const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Everything the runtime could have changed: launches, and every file of the task directory. */
export function footprint(w: World): string {
  const files = (w.files.listDir(TASK_DIR) ?? []).map(
    (name) => `${name}:${Buffer.from(w.files.contents(`${TASK_DIR}/${name}`) ?? []).toString("base64")}`,
  );
  return JSON.stringify({ launches: w.launcher.launches.length, files });
}

/** The placeholders for real task ids, swapped in at the top level of the arguments. */
export function withIds(raw: unknown, ids: Readonly<Record<string, string>>): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || !("taskId" in raw)) return raw;
  const id = (raw as { taskId: unknown }).taskId;
  return typeof id === "string" && id in ids ? { ...raw, taskId: ids[id] } : raw;
}

export async function withinLimit<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS)),
  );
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

export type Outcome =
  | { readonly kind: "ok"; readonly text: string }
  | { readonly kind: "rejected"; readonly code: string };

/** Runs the tool the way Pi does (prepareArguments, then execute) or through execute alone. */
export async function call(tool: ToolDefinition, raw: unknown, viaPrepare: boolean): Promise<Outcome> {
  const ctx = { cwd: "/w", hasUI: false } as unknown as ExtensionContext;
  try {
    const params: unknown = viaPrepare && tool.prepareArguments !== undefined ? tool.prepareArguments(raw) : raw;
    const result = await withinLimit(tool.execute("call-1", params as never, undefined, undefined, ctx));
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    return { kind: "ok", text };
  } catch (error) {
    if (
      error instanceof Error &&
      error.name === "TypedFailure" &&
      "code" in error &&
      typeof error.code === "string" &&
      /^[a-z][a-z0-9_]*$/.test(error.code)
    ) {
      expect(error.message.length).toBeGreaterThan(0);
      return { kind: "rejected", code: error.code };
    }
    throw error; // anything else is a bug: the property fails
  }
}
