import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileString } from "../../../adapters/fake/hostile-arbitraries.ts";
import { BG_USAGE, parseBgCommandLine } from "./bg-command-line.ts";
import { normalizeRunArguments } from "./run-request.ts";

const commandText = fc.oneof(
  hostileString,
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          "--agent",
          "--no-agent",
          "--llm-agent",
          "--script",
          "--name",
          "-n",
          "--name=x",
          "--",
          "--weird",
          '"quoted name"',
          "'q'",
          "-x",
        ),
        hostileString,
      ),
      { maxLength: 6 },
    )
    .map((words) => words.join(" ")),
);

describe("/bg command text under hostile input", () => {
  it("parses or rejects with invalid_arguments and the usage, never throws", () => {
    fc.assert(
      fc.property(commandText, (input) => {
        const parsed = parseBgCommandLine(input);
        if (!parsed.ok) {
          expect(parsed.error.code).toBe("invalid_arguments");
          expect(parsed.error.message).toContain(BG_USAGE);
          return;
        }
        const { command, name } = parsed.value;
        expect(command).toBe(command.trim());
        expect(command.length).toBeGreaterThan(0);
        expect(input).toContain(command);
        if (name !== undefined) expect(name).toBe(name.trim());
        if (name !== undefined) expect(name.length).toBeGreaterThan(0);
      }),
      { numRuns: 2_000 },
    );
  });

  it("a parsed command survives `-- command` unchanged", () => {
    fc.assert(
      fc.property(commandText, (input) => {
        const parsed = parseBgCommandLine(input);
        if (!parsed.ok) return;
        const again = parseBgCommandLine(`-- ${parsed.value.command}`);
        expect(again.ok && again.value.command).toBe(parsed.value.command);
      }),
      { numRuns: 1_000 },
    );
  });

  it("what it yields goes through bg_run's validation as a result, never an exception", () => {
    fc.assert(
      fc.property(commandText, (input) => {
        const parsed = parseBgCommandLine(input);
        if (!parsed.ok) return;
        const request = normalizeRunArguments({
          ...parsed.value,
          notifyOnCompletion: true,
          triggerOnCompletion: false,
        });
        if (!request.ok) expect(request.error.code).toBe("invalid_arguments");
        else expect(request.value.command).toBe(parsed.value.command);
      }),
      { numRuns: 1_000 },
    );
  });
});
