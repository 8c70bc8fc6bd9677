import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileNumber, hostileString, toolInput } from "../fake/hostile-arbitraries.ts";
import { err, ok } from "../../domain/shared/model/result.ts";
import { call, FINISHED, footprint, RUNNING, RUNS, settle, withIds, world } from "./task-fuzz.test-support.ts";
import { taskToolSpecs, type RuntimeAccess } from "../../domain/tasks/service/task-tool-specs.ts";
import { piToolFromSpec } from "./pi-tool.ts";
import { RUNS_ANYTHING, type AnyHostToolSpec } from "../../domain/shared/service/host-tool-spec.ts";

/** The Pi API the spec mapping reads (the thinking level of a call's session). */
const PI = { getThinkingLevel: () => "off" as const };

/**
 * Hostile input at the host boundary: every task tool, through the same definitions Pi gets (via
 * prepareArguments and then execute, and via execute alone). Each call either succeeds or throws the typed
 * failure (a code), never anything else, never hangs, and a rejected call starts no process and writes no
 * file. The task commands' text: task-commands.fuzz.test.ts.
 */
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
  taskToolSpecs({ runtime, now: () => Date.now(), delivery: "agent_turn" }).map((spec) => piToolFromSpec(PI, spec));

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
    const careless = piToolFromSpec(PI, {
      name: "careless",
      label: "Careless",
      effects: RUNS_ANYTHING,
      description: "launches, then rejects",
      promptSnippet: "",
      parameters: {} as never,
      normalize: (raw: unknown) => ok(raw),
      run: async () => {
        w.launcher.launch({ command: { kind: "shell", command: "echo" }, cwd: "/w", env: {} });
        return err({ code: "too_late", message: "rejected after launching" });
      },
    } as AnyHostToolSpec);
    const before = footprint(w);
    expect(await call(careless, {}, true)).toEqual({ kind: "rejected", code: "too_late" });
    expect(footprint(w)).not.toBe(before);
    await w.runtime.shutdown();
  });

  it("lets an untyped exception through as a failure", async () => {
    const broken = piToolFromSpec(PI, {
      name: "broken",
      label: "Broken",
      effects: RUNS_ANYTHING,
      description: "throws a plain error",
      promptSnippet: "",
      parameters: {} as never,
      normalize: () => {
        throw new TypeError("cannot read properties of undefined");
      },
      run: async () => ok({ text: "", details: undefined }),
    });
    await expect(call(broken, {}, true)).rejects.toThrow(TypeError);
  });
});
