import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileValue } from "../../../adapters/fake/hostile-arbitraries.ts";
import { MAX_TASK_METADATA_BYTES, parseTaskMetadata } from "./task-metadata.ts";
import type { TaskSnapshot } from "./task-snapshot.ts";

const count = fc.nat({ max: 2 ** 40 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const usage = fc.oneof(fc.double({ min: 0, max: 1e9, noNaN: true }), fc.constant("unavailable" as const));

/** Snapshots of every shape the runtime can write. */
const snapshot: fc.Arbitrary<TaskSnapshot> = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 40 }),
    name: fc.string({ maxLength: 80 }),
    command: fc.string({ unit: "binary", maxLength: 200 }),
    description: maybe(fc.string({ maxLength: 200 })),
    status: fc.constantFrom("running", "completed", "failed", "killed") as fc.Arbitrary<TaskSnapshot["status"]>,
    startTime: fc.integer({ min: 0, max: 2 ** 45 }),
    endTime: maybe(fc.integer({ min: 0, max: 2 ** 45 })),
    exitCode: maybe(fc.integer({ min: -255, max: 255 })),
    signal: maybe(fc.constantFrom("SIGTERM", "SIGKILL", "SIGSEGV")),
    pid: maybe(fc.integer({ min: 1, max: 4_194_304 })),
    produced: count,
    capAction: fc.constantFrom("keep_head_and_tail", "kill") as fc.Arbitrary<"keep_head_and_tail" | "kill">,
    isAgent: fc.boolean(),
    error: maybe(fc.string({ maxLength: 300 })),
    killKind: maybe(
      fc.constantFrom("user", "timeout", "output_cap", "shutdown") as fc.Arbitrary<
        "user" | "timeout" | "output_cap" | "shutdown"
      >,
    ),
    flags: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
    timeoutSeconds: maybe(fc.integer({ min: 1, max: 604_800 })),
    strays: maybe(fc.nat({ max: 100 })),
    contextUsage: maybe(fc.record({ tokens: usage, contextWindow: usage, percent: usage })),
    toolUsage: maybe(
      fc.record({
        total: count,
        failed: count,
        byName: fc.dictionary(fc.string({ maxLength: 20 }), count, { maxKeys: 4 }),
      }),
    ),
    model: maybe(fc.string({ maxLength: 40 })),
  })
  .map((r) => {
    const { produced, capAction, flags, ...rest } = r;
    const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    return {
      ...defined,
      schema_version: "pi-background-tasks.task.v1",
      outputPath: `.pi/tasks/s/${r.id}.output`,
      cwd: "/work",
      bytesWritten: produced,
      output: {
        producedBytes: produced,
        keptBytes: Math.min(produced, 1 << 20),
        elidedBytes: Math.max(0, produced - (1 << 20)),
        capBytes: 1 << 20,
        capAction,
      },
      notified: flags[0],
      notifyOnCompletion: flags[1],
      triggerOnCompletion: flags[2],
    } as TaskSnapshot;
  });

/** As TaskMetadataWriter writes it. */
const fileOf = (s: TaskSnapshot) => new TextEncoder().encode(`${JSON.stringify(s, null, 2)}\n`);
const TYPED = ["metadata_oversized", "metadata_not_utf8", "metadata_malformed", "metadata_invalid"];

describe("parseTaskMetadata", () => {
  it("reads back every snapshot exactly as it was written", () => {
    fc.assert(
      fc.property(snapshot, (s) => {
        expect(parseTaskMetadata(fileOf(s))).toEqual({ ok: true, value: s });
      }),
      { numRuns: 500 },
    );
  });

  it("rejects every truncation as malformed (or as broken UTF-8), never as a task", () => {
    fc.assert(
      fc.property(snapshot, fc.double({ min: 0, max: 1, noNaN: true }), (s, fraction) => {
        const bytes = fileOf(s);
        const json = bytes.length - 1; // a cut of only the final newline still holds the whole JSON
        const cut = Math.min(json - 1, Math.floor(fraction * json));
        const parsed = parseTaskMetadata(bytes.subarray(0, cut));
        expect(parsed.ok).toBe(false);
        if (!parsed.ok) expect(["metadata_malformed", "metadata_not_utf8"]).toContain(parsed.error.code);
      }),
      { numRuns: 1_000 },
    );
  });

  it("answers every corruption with a snapshot or a typed error, never an exception", () => {
    fc.assert(
      fc.property(
        snapshot,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        (s, flips) => {
          const bytes = fileOf(s);
          for (const [at, value] of flips) bytes[at % bytes.length] = value;
          const parsed = parseTaskMetadata(bytes);
          if (!parsed.ok) {
            expect(TYPED).toContain(parsed.error.code);
            expect(parsed.error.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("gives a typed error for arbitrary bytes and for JSON of any other shape", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.jsonValue().map((v) => new TextEncoder().encode(JSON.stringify(v) ?? "null")),
        ),
        (bytes) => {
          const parsed = parseTaskMetadata(bytes);
          if (!parsed.ok) expect(TYPED).toContain(parsed.error.code);
        },
      ),
      { numRuns: 1_000 },
    );
    fc.assert(
      fc.property(hostileValue, (value) => {
        let text: string | undefined;
        try {
          text = JSON.stringify(value);
        } catch {
          return; // BigInt and cycles have no JSON form
        }
        const parsed = parseTaskMetadata(new TextEncoder().encode(text ?? "undefined"));
        expect(parsed.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("names each failure precisely", () => {
    const good = fileOf(fc.sample(snapshot, { numRuns: 1, seed: 3 })[0] as TaskSnapshot);
    expect(parseTaskMetadata(new Uint8Array(MAX_TASK_METADATA_BYTES + 1))).toMatchObject({
      ok: false,
      error: { code: "metadata_oversized" },
    });
    expect(parseTaskMetadata(new Uint8Array([0x7b, 0xff, 0x7d]))).toMatchObject({
      ok: false,
      error: { code: "metadata_not_utf8" },
    });
    expect(parseTaskMetadata(good.subarray(0, 10))).toMatchObject({ ok: false, error: { code: "metadata_malformed" } });
    const wrong = JSON.parse(new TextDecoder().decode(good)) as Record<string, unknown>;
    const invalid = (patch: Record<string, unknown>) =>
      parseTaskMetadata(new TextEncoder().encode(JSON.stringify({ ...wrong, ...patch })));
    expect(invalid({ status: "done" })).toMatchObject({ ok: false, error: { code: "metadata_invalid" } });
    expect(invalid({ schema_version: "pi-background-tasks.task.v2" })).toMatchObject({
      ok: false,
      error: { code: "metadata_invalid" },
    });
    expect(invalid({ bytesWritten: -1 })).toMatchObject({ ok: false, error: { code: "metadata_invalid" } });
    expect(invalid({ statuz: "running" })).toMatchObject({ ok: false, error: { code: "metadata_invalid" } });
    const deep = `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    expect(parseTaskMetadata(new TextEncoder().encode(deep))).toMatchObject({
      ok: false,
      error: { code: "metadata_invalid" },
    });
    const problems = invalid({ pid: 0, notified: "yes" });
    expect(!problems.ok && problems.error.message).toMatch(/\/pid.*\/notified|\/notified.*\/pid/);
  });
});
