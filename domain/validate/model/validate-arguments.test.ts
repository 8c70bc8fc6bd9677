import { describe, expect, it } from "vitest";
import { LIKELY_VIOLATIONS, validArguments } from "./validate-fixtures.test-support.ts";
import { FusionValidateParameters, normalizeValidateArguments } from "./validate-arguments.ts";

/** The contract's structure with every description removed: what a host must see. */
const CONTRACT_SHAPE = {
  type: "object",
  additionalProperties: false,
  required: ["objective", "background", "changeSummary", "scope", "acceptanceCriteria", "verification"],
  properties: {
    objective: { type: "string", minLength: 1 },
    background: { type: "array", items: { type: "string", minLength: 1 } },
    changeSummary: { type: "string", minLength: 1 },
    scope: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
    acceptanceCriteria: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
    verification: {
      type: "object",
      additionalProperties: false,
      required: ["status"],
      properties: {
        status: { type: "string", enum: ["provided", "not_run"] },
        evidence: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["check", "outcome"],
            properties: { check: { type: "string", minLength: 1 }, outcome: { type: "string", minLength: 1 } },
          },
        },
        reason: { type: "string", minLength: 1 },
      },
    },
    knownLimitations: { type: "array", items: { type: "string", minLength: 1 } },
    exclusions: { type: "array", items: { type: "string", minLength: 1 } },
  },
};

function shape(value: unknown): unknown {
  if (Array.isArray(value)) return [...value].map(shape).sort();
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (key !== "description") out[key] = shape(v);
  return out;
}

describe("fusion_validate schema", () => {
  it("has exactly the contract's structure: closed objects, required fields, minimums, a string enum", () => {
    expect(shape(JSON.parse(JSON.stringify(FusionValidateParameters)))).toEqual(shape(CONTRACT_SHAPE));
  });

  it("describes every field for the model", () => {
    const props = FusionValidateParameters.properties as Record<string, { description?: string }>;
    for (const [name, prop] of Object.entries(props)) expect(prop.description, name).toMatch(/\S/);
  });
});

describe("normalizeValidateArguments", () => {
  it("trims every string and fills the optional lists with []", () => {
    const result = normalizeValidateArguments({
      ...validArguments(),
      scope: ["  a.ts  ", "b.ts"],
      verification: { status: "provided", evidence: [{ check: " npm test ", outcome: "ok\n" }] },
    });
    expect(result.ok && result.value).toEqual({
      objective: "Make the task store survive restarts.",
      background: ["Tasks were lost on restart."],
      changeSummary: "Added durable metadata writes.",
      scope: ["a.ts", "b.ts"],
      acceptanceCriteria: ["A completed task is still listed after a restart."],
      verification: { status: "provided", evidence: [{ check: "npm test", outcome: "ok" }] },
      knownLimitations: [],
      exclusions: [],
    });
  });

  it("accepts not_run with a reason, and drops an empty evidence list", () => {
    const result = normalizeValidateArguments({
      ...validArguments(),
      verification: { status: "not_run", reason: " no test suite yet ", evidence: [] },
      exclusions: ["docs/"],
    });
    expect(result.ok && result.value.verification).toEqual({ status: "not_run", reason: "no test suite yet" });
    expect(result.ok && result.value.exclusions).toEqual(["docs/"]);
  });

  it("accepts an empty background", () => {
    expect(normalizeValidateArguments({ ...validArguments(), background: [] }).ok).toBe(true);
  });

  it.each(LIKELY_VIOLATIONS)("refuses %s with a typed, actionable problem", (_name, raw, fragment) => {
    const result = normalizeValidateArguments(raw);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_arguments");
    expect(result.error.tool).toBe("fusion_validate");
    expect(result.error.problems.join("\n")).toContain(fragment);
    expect(result.error.message).toContain("Nothing was started or written");
  });

  it("reports a capability together with the other problems in one answer", () => {
    const result = normalizeValidateArguments({ ...validArguments(), capability: "reason", scope: [] });
    expect(result.ok ? [] : result.error.problems).toEqual([
      expect.stringContaining("fixed inspect capability"),
      expect.stringContaining("'scope'"),
    ]);
  });

  it("never mistakes the legacy form for anything but a migration", () => {
    const result = normalizeValidateArguments({ prompt: "x", capability: "inspect" });
    expect(result.ok ? [] : result.error.problems).toHaveLength(1);
    const text = result.ok ? "" : (result.error.problems[0] ?? "");
    for (const field of [
      "objective",
      "background",
      "changeSummary",
      "scope",
      "acceptanceCriteria",
      "verification",
      "knownLimitations",
      "exclusions",
    ])
      expect(text).toContain(field);
  });
});
