import type {
  ExtensionAPI,
  ExtensionCommandContext,
  ExtensionContext,
  ToolDefinition,
} from "@mariozechner/pi-coding-agent";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FakeProcessLauncher } from "../fake/fake-process-launcher.ts";
import { hostileNumber, hostileString, toolInput } from "../fake/hostile-arbitraries.ts";
import { InMemoryFileCommitter } from "../fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../fake/seeded-random-source.ts";
import { ok } from "../../domain/shared/model/result.ts";
import { normalizeRunArguments } from "../../domain/tasks/model/run-request.ts";
import { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";
import { err } from "../../domain/shared/model/result.ts";
import { defineTool } from "./define-tool.ts";
import { registerTaskCommands } from "./task-commands.ts";
import { taskToolSpecs, type RuntimeAccess } from "../../domain/tasks/service/task-tool-specs.ts";
import { piToolFromSpec } from "./pi-tool.ts";

/**
 * Hostile input at the host boundary: every task tool (through the same definitions Pi gets, via
 * prepareArguments and then execute, and via execute alone) and every task command's text. Each
 * call either succeeds or throws the typed failure (a code), never anything else, never hangs, and
 * a rejected call starts no process and writes no file.
 */
const TASK_DIR = "/w/.pi/tasks/s";
const HANG_MS = 5_000;
const RUNS = 150;
const RUNNING = "@running";
const FINISHED = "@finished";

interface World {
  readonly runtime: TaskRuntime;
  readonly launcher: FakeProcessLauncher;
  readonly files: InMemoryFileCommitter;
  readonly ids: Readonly<Record<string, string>>;
}

/** A fresh runtime on the fakes with one running and one finished task, all writes settled. */
async function world(): Promise<World> {
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

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Everything the runtime could have changed: launches, and every file of the task directory. */
function footprint(w: World): string {
  const files = (w.files.listDir(TASK_DIR) ?? []).map(
    (name) => `${name}:${Buffer.from(w.files.contents(`${TASK_DIR}/${name}`) ?? []).toString("base64")}`,
  );
  return JSON.stringify({ launches: w.launcher.launches.length, files });
}

/** The placeholders for real task ids, swapped in at the top level of the arguments. */
function withIds(raw: unknown, ids: Readonly<Record<string, string>>): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || !("taskId" in raw)) return raw;
  const id = (raw as { taskId: unknown }).taskId;
  return typeof id === "string" && id in ids ? { ...raw, taskId: ids[id] } : raw;
}

async function withinLimit<T>(work: Promise<T>): Promise<T> {
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

type Outcome = { readonly kind: "ok"; readonly text: string } | { readonly kind: "rejected"; readonly code: string };

/** Runs the tool the way Pi does (prepareArguments, then execute) or through execute alone. */
async function call(tool: ToolDefinition, raw: unknown, viaPrepare: boolean): Promise<Outcome> {
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

const taskId = fc.oneof(fc.constantFrom(RUNNING, FINISHED, "b", "zzzz", " "), hostileString);
const inputs: Record<string, fc.Arbitrary<unknown>> = {
  bg_run: toolInput({
    command: fc.oneof(fc.constantFrom("echo hi", "  make test  ", "sleep 1; echo x"), hostileString),
    isAgent: fc.boolean(),
    name: fc.oneof(fc.string({ maxLength: 90 }), hostileString),
    description: hostileString,
    timeoutSeconds: fc.oneof(fc.double({ min: 0.001, max: 1_000, noNaN: true }), hostileNumber),
    notifyOnCompletion: fc.boolean(),
    triggerOnCompletion: fc.boolean(),
    onOutputCap: fc.constantFrom("kill", "keep_head_and_tail", "KILL", ""),
  }),
  bg_status: fc.oneof(toolInput({ taskId }), fc.constant(undefined)),
  bg_logs: toolInput({
    taskId,
    maxBytes: fc.oneof(fc.integer({ min: 1, max: 100_000 }), hostileNumber),
    tail: fc.boolean(),
    offset: fc.oneof(fc.nat(), hostileNumber),
  }),
  bg_kill: toolInput({ taskId }),
};

/** The Pi task tools exactly as the extension registers them (catalogue spec through the Pi mapping). */
const taskTools = (runtime: RuntimeAccess) =>
  taskToolSpecs({ runtime, now: () => Date.now(), delivery: "agent_turn" }).map((spec) =>
    piToolFromSpec({ getThinkingLevel: () => "off" as const }, spec),
  );

/** One call each tool accepts and one it refuses, always tried, so both sides of the boundary are reached. */
const boundary: Record<string, [unknown, unknown]> = {
  bg_run: [{ name: "n", command: "echo hi", isAgent: false }, { command: "echo hi" }],
  bg_status: [{}, { taskId: "zzzz" }],
  bg_logs: [{ taskId: FINISHED }, { taskId: FINISHED, extra: 1 }],
  bg_kill: [{ taskId: RUNNING }, { taskId: " " }],
};

describe("task tools under hostile arguments", () => {
  const names = taskTools(() => {
    throw new Error("not used");
  }).map((t) => t.name);

  it("covers every task tool", () => {
    expect(names.filter((n) => inputs[n] === undefined)).toEqual([]);
  });

  for (const name of names) {
    for (const viaPrepare of [true, false]) {
      it(`${name} (${viaPrepare ? "prepareArguments, then execute" : "execute alone"}): a result or a typed failure, and nothing started or written when rejected`, async () => {
        const arbitrary = inputs[name] ?? fc.anything();
        let rejected = 0;
        let accepted = 0;
        await fc.assert(
          fc.asyncProperty(arbitrary, async (input) => {
            const w = await world();
            const tool = taskTools(() => w.runtime).find((t) => t.name === name);
            if (tool === undefined) throw new Error(`${name} vanished`);
            const before = footprint(w);
            const outcome = await call(tool, withIds(input, w.ids), viaPrepare);
            if (outcome.kind === "rejected") {
              rejected++;
              await settle();
              expect(footprint(w)).toBe(before);
            } else {
              accepted++;
              expect(outcome.text.length).toBeGreaterThan(0);
            }
            await w.runtime.shutdown();
          }),
          { numRuns: RUNS, examples: (boundary[name] ?? []).map((example) => [example]) },
        );
        // Both sides of the boundary are reached (the examples guarantee it; the generator adds the rest).
        expect(rejected).toBeGreaterThan(0);
        expect(accepted).toBeGreaterThan(0);
      });
    }
  }
});

describe("the fuzz harness itself", () => {
  it("notices a tool that starts a process before it rejects", async () => {
    const w = await world();
    const careless = defineTool({
      name: "careless",
      label: "Careless",
      description: "launches, then rejects",
      promptSnippet: "",
      parameters: {} as never,
      normalize: (raw: unknown) => ok(raw),
      run: async () => {
        w.launcher.launch({ command: { kind: "shell", command: "echo" }, cwd: "/w", env: {} });
        return err({ code: "too_late", message: "rejected after launching" });
      },
    });
    const before = footprint(w);
    expect(await call(careless, {}, true)).toEqual({ kind: "rejected", code: "too_late" });
    expect(footprint(w)).not.toBe(before);
    await w.runtime.shutdown();
  });

  it("lets an untyped exception through as a failure", async () => {
    const broken = defineTool({
      name: "broken",
      label: "Broken",
      description: "throws a plain error",
      promptSnippet: "",
      parameters: {} as never,
      normalize: () => {
        throw new TypeError("cannot read properties of undefined");
      },
      run: async () => ok({ content: [], details: undefined }),
    });
    await expect(call(broken, {}, true)).rejects.toThrow(TypeError);
  });
});

interface Note {
  readonly message: string;
  readonly level: string;
}

describe("task commands under hostile text", () => {
  async function commandWorld() {
    const w = await world();
    const handlers = new Map<string, (args: string, ctx: ExtensionCommandContext) => Promise<void>>();
    const pi = {
      registerCommand: (
        name: string,
        options: { handler: (args: string, ctx: ExtensionCommandContext) => Promise<void> },
      ) => handlers.set(name, options.handler),
    };
    registerTaskCommands(pi as unknown as ExtensionAPI, () => w.runtime);
    const notes: Note[] = [];
    const ctx = {
      hasUI: true,
      ui: { notify: (message: string, level: string) => notes.push({ message, level }) },
    } as unknown as ExtensionCommandContext;
    return { ...w, handlers, notes, ctx };
  }

  const text = fc.oneof(
    hostileString,
    fc
      .tuple(
        fc.constantFrom("--agent ", "--no-agent ", "--name ", "-n ", "--name=", "-- ", "--bogus ", '--name "', ""),
        hostileString,
      )
      .map(([a, b]) => a + b),
    fc.constantFrom(
      "",
      "   ",
      "--",
      "--name",
      '-n "unterminated',
      "--agent --",
      RUNNING,
      FINISHED,
      `${RUNNING} 10`,
      `${RUNNING} NaN`,
      `${RUNNING} -5`,
    ),
  );

  for (const command of ["bg", "logs", "kill", "jobs"]) {
    it(`/${command}: never throws, and an error answer starts and writes nothing`, async () => {
      let errors = 0;
      await fc.assert(
        fc.asyncProperty(text, async (input) => {
          const w = await commandWorld();
          const handler = w.handlers.get(command);
          if (handler === undefined) throw new Error(`/${command} is not registered`);
          const args = Object.entries(w.ids).reduce((s, [placeholder, id]) => s.replaceAll(placeholder, id), input);
          const before = footprint(w);
          await withinLimit(handler(args, w.ctx));
          expect(w.notes.length).toBeGreaterThan(0);
          if (w.notes.some((n) => n.level === "error")) {
            errors++;
            await settle();
            expect(footprint(w)).toBe(before);
          }
          await w.runtime.shutdown();
        }),
        { numRuns: RUNS },
      );
      if (command !== "jobs") expect(errors).toBeGreaterThan(0);
    });
  }
});
