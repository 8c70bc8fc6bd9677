import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileString } from "../fake/hostile-arbitraries.ts";
import { commandWorld } from "./task-commands.test-support.ts";
import { FINISHED, footprint, RUNNING, RUNS, settle, withinLimit } from "./task-fuzz.test-support.ts";

/**
 * Hostile text for every task command: a handler never throws or hangs, always answers, and an error
 * answer starts no process and writes no file.
 */
describe("task commands under hostile text", () => {
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
