import { describe, expect, it } from "vitest";
import { normalizeBrainstormArguments } from "../../fusion/model/brainstorm-arguments.ts";
import { buildBrainstormInput, checkBrainstormInput } from "../../fusion/model/clean-input.ts";
import { buildValidateInput, checkValidateInput } from "./clean-task-input.ts";
import { validArguments } from "./validate-fixtures.test-support.ts";
import { normalizeValidateArguments } from "./validate-arguments.ts";

/** Written by hand from the clean-task envelope, hashed with sha256sum; never regenerated from the code under test. */
const GOLDEN_JSON =
  '{"context":{"declared_sources":[],"kind":"clean_task","policy_id":"fusion-clean-task-v1"},"cwd":"/work/project","request":{"text":"How should the task store cache its metadata?"},"schema_version":"pi-background-tasks.fusion-clean-input.v1","workflow":"brainstorm"}';
const GOLDEN_SHA256 = "445e18ea5ea0d19fe23afc175a249faecbab397a39a4f40f0ada12053499da32";

function prompt(raw: string): string {
  const normalized = normalizeBrainstormArguments({ prompt: raw });
  if (!normalized.ok) throw new Error(normalized.error.message);
  return normalized.value.prompt;
}

const rebuilt = (change: (input: Record<string, unknown> & { request: Record<string, unknown> }) => void): string => {
  const input = JSON.parse(GOLDEN_JSON) as Record<string, unknown> & { request: Record<string, unknown> };
  change(input);
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : typeof v === "object" && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sort(input));
};

describe("clean brainstorm canonical input", () => {
  it("is the canonical JSON of the prompt and cwd, byte for byte", () => {
    const built = buildBrainstormInput(prompt("How should the task store cache its metadata?"), "/work/project");
    expect(built.json).toBe(GOLDEN_JSON);
    expect(built.sha256).toBe(GOLDEN_SHA256);
    expect(built.bytes).toBe(Buffer.byteLength(GOLDEN_JSON));
  });

  it("carries the prompt only: no transcript, system prompt, projection or ledger", () => {
    expect(Object.keys(JSON.parse(GOLDEN_JSON) as object).sort()).toEqual([
      "context",
      "cwd",
      "request",
      "schema_version",
      "workflow",
    ]);
    expect(Object.keys((JSON.parse(GOLDEN_JSON) as { request: object }).request)).toEqual(["text"]);
  });

  it("passes its own check as a clean task", () => {
    const checked = checkBrainstormInput(GOLDEN_JSON, undefined);
    expect(checked.ok && checked.value).toEqual({
      schemaVersion: "pi-background-tasks.fusion-clean-input.v1",
      cwd: "/work/project",
      context: { kind: "clean_task", policy_id: "fusion-clean-task-v1" },
      sha256: GOLDEN_SHA256,
      bytes: Buffer.byteLength(GOLDEN_JSON),
    });
  });

  it("keeps a prompt's surrounding whitespace: the request text is authoritative", () => {
    expect(
      checkBrainstormInput(
        rebuilt((i) => (i.request.text = " x \n")),
        undefined,
      ).ok,
    ).toBe(true);
  });

  it.each([
    ["a ledger", GOLDEN_JSON, "{}", "no omission ledger"],
    ["a blank prompt", rebuilt((i) => (i.request.text = "   ")), undefined, "not a valid fusion_brainstorm prompt"],
    ["an extra request key", rebuilt((i) => (i.request.capability = "reason")), undefined, "exactly one string, text"],
    ["a system prompt", rebuilt((i) => (i.system_prompt = "You are the parent agent.")), undefined, "does not match"],
    ["a validate envelope", buildValidateInput(mustValidate(), "/work/project").json, undefined, "workflow brainstorm"],
  ])("refuses %s", (_name, json, ledger, fragment) => {
    const checked = checkBrainstormInput(json, ledger);
    expect(checked.ok ? "" : checked.error.code).toBe("context_capture_failed");
    expect(checked.ok ? "" : checked.error.message).toContain(fragment);
  });

  it("is refused by the validate check: the workflows never take each other's input", () => {
    const checked = checkValidateInput(GOLDEN_JSON, undefined);
    expect(checked.ok ? "" : checked.error.message).toContain("workflow validate");
  });
});

function mustValidate() {
  const normalized = normalizeValidateArguments(validArguments());
  if (!normalized.ok) throw new Error(normalized.error.message);
  return normalized.value;
}
