import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { deriveTaskName, normalizeRunArguments } from "./run-request.ts";

const base = { name: "unit tests", command: "npm test", isAgent: false };

describe("normalizeRunArguments", () => {
  it("applies defaults and trims", () => {
    const r = normalizeRunArguments({ ...base, command: "  npm test  ", timeoutSeconds: 10.9 });
    expect(r).toEqual({
      ok: true,
      value: {
        name: "unit tests",
        command: "npm test",
        isAgent: false,
        timeoutSeconds: 10,
        notifyOnCompletion: true,
        triggerOnCompletion: true,
        onOutputCap: "keep_head_and_tail",
      },
    });
  });

  it.each([
    ["missing isAgent", { name: "x", command: "ls" }, /missing required 'isAgent'.*isAgent: true only when/],
    ["string isAgent", { ...base, isAgent: "false" }, /'isAgent' must be boolean/],
    ["empty command", { ...base, command: "" }, /'command' must not be empty/],
    ["whitespace command", { ...base, command: " \n\t " }, /'command' must not be empty/],
    ["NUL in command", { ...base, command: "echo a\u0000b" }, /'command' contains a NUL byte/],
    ["NUL in name", { ...base, name: "x\u0000y" }, /'name' contains a NUL byte/],
    ["NUL in description", { ...base, description: "x\u0000" }, /'description' contains a NUL byte/],
    ["negative timeout", { ...base, timeoutSeconds: -1 }, /'timeoutSeconds'/],
    ["zero timeout", { ...base, timeoutSeconds: 0 }, /'timeoutSeconds'/],
    ["NaN timeout", { ...base, timeoutSeconds: Number.NaN }, /'timeoutSeconds'/],
    ["huge timeout", { ...base, timeoutSeconds: 1e12 }, /'timeoutSeconds'/],
    ["string timeout", { ...base, timeoutSeconds: "10" }, /'timeoutSeconds' must be number/],
    ["unknown key", { ...base, cwd: "/tmp" }, /unknown key 'cwd'/],
    ["not an object", "npm test", /must be object/],
    ["null", null, /must be object/],
    ["array", [base], /must be object/],
    ["bad cap action", { ...base, onOutputCap: "truncate" }, /'onOutputCap'/],
    ["huge command", { ...base, command: "x".repeat(100_001) }, /'command'/],
  ])("rejects %s with a typed, actionable error", (_label, raw, pattern) => {
    const r = normalizeRunArguments(raw);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("invalid_arguments");
    expect(r.error.message).toMatch(/Nothing was started or written/);
    expect(r.error.message).toMatch(pattern);
  });

  it("derives a name when none or a blank one is given", () => {
    const r = normalizeRunArguments({ command: "npm run build -- --watch", isAgent: false });
    expect(r.ok && r.value.name).toBe("npm build");
    expect(deriveTaskName("sleep 10 && echo done and more words here")).toBe("sleep 10 && echo done");
    expect(deriveTaskName("x", "  A   described\ntask ")).toBe("A described task");
  });

  it("is idempotent on its own output", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => /\S/.test(s)),
        fc.boolean(),
        fc.option(fc.double({ min: 0.001, max: 1e5, noNaN: true })),
        (command, isAgent, timeout) => {
          const first = normalizeRunArguments({
            command,
            isAgent,
            ...(timeout === null ? {} : { timeoutSeconds: timeout }),
          });
          if (!first.ok) return;
          const second = normalizeRunArguments(first.value);
          expect(second).toEqual(first);
        },
      ),
    );
  });
});
