import { describe, expect, it } from "vitest";
import { buildFusionInput, FUSION_TOOL_POLICY } from "../../projection/model/index.ts";
import { validArguments } from "./validate-fixtures.test-support.ts";
import { buildValidateInput, checkValidateInput } from "./clean-task-input.ts";
import { normalizeValidateArguments, type ValidateRequest } from "./validate-arguments.ts";

/** Written by hand from the contract, hashed with sha256sum; never regenerated from the code under test. */
const GOLDEN_JSON =
  '{"context":{"declared_sources":[],"kind":"clean_task","policy_id":"fusion-clean-task-v1"},"cwd":"/work/project","request":{"acceptanceCriteria":["A completed task is still listed after a restart."],"background":["Tasks were lost on restart."],"changeSummary":"Added durable metadata writes.","exclusions":[],"knownLimitations":[],"objective":"Make the task store survive restarts.","scope":["domain/tasks/service/task-runtime.ts"],"verification":{"evidence":[{"check":"npx vitest run domain/tasks","outcome":"42 tests passed"}],"status":"provided"}},"schema_version":"pi-background-tasks.fusion-clean-input.v1","workflow":"validate"}';
const GOLDEN_SHA256 = "b7ccfafaf6d298243ddf1cbfed3ea3130c05d7e9728382b4066e3bf1431d5b45";

function request(raw: unknown = validArguments()): ValidateRequest {
  const normalized = normalizeValidateArguments(raw);
  if (!normalized.ok) throw new Error(normalized.error.message);
  return normalized.value;
}

describe("clean-task canonical input", () => {
  it("is the canonical JSON of the normalised request and cwd, byte for byte", () => {
    const built = buildValidateInput(request(), "/work/project");
    expect(built.json).toBe(GOLDEN_JSON);
    expect(built.sha256).toBe(GOLDEN_SHA256);
    expect(built.bytes).toBe(Buffer.byteLength(GOLDEN_JSON));
  });

  it("does not depend on key order or stray whitespace in the call", () => {
    const raw = validArguments();
    const shuffled = Object.fromEntries(
      Object.entries(raw)
        .reverse()
        .map(([k, v]) => [k, typeof v === "string" ? `\n ${v}\t` : v]),
    );
    expect(buildValidateInput(request(shuffled), "/work/project").json).toBe(GOLDEN_JSON);
  });

  it("carries no transcript, system prompt, projection or ledger", () => {
    const parsed = JSON.parse(GOLDEN_JSON) as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(["context", "cwd", "request", "schema_version", "workflow"]);
  });

  it("passes its own check, which reports the clean-task context", () => {
    const checked = checkValidateInput(GOLDEN_JSON, undefined);
    expect(checked.ok && checked.value).toEqual({
      schemaVersion: "pi-background-tasks.fusion-clean-input.v1",
      cwd: "/work/project",
      context: { kind: "clean_task", policy_id: "fusion-clean-task-v1" },
      sha256: GOLDEN_SHA256,
      bytes: Buffer.byteLength(GOLDEN_JSON),
    });
  });

  interface GoldenShape {
    context: { declared_sources: string[] };
    request: { objective: string; scope: string[] };
    system_prompt?: string;
  }
  const edit = (change: (input: GoldenShape) => void): string => {
    const input = JSON.parse(GOLDEN_JSON) as GoldenShape;
    change(input);
    return buildJson(input);
  };
  const buildJson = (value: unknown): string => {
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
    return JSON.stringify(sort(value));
  };

  it.each([
    ["a ledger", GOLDEN_JSON, "{}", "no omission ledger"],
    ["pretty-printed bytes", JSON.stringify(JSON.parse(GOLDEN_JSON), null, 2), undefined, "re-canonicalise"],
    [
      "a declared source",
      edit((i) => i.context.declared_sources.push("https://example.com")),
      undefined,
      "declared_sources",
    ],
    ["a system prompt", edit((i) => (i.system_prompt = "You are the parent agent.")), undefined, "does not match"],
    ["an untrimmed request", edit((i) => (i.request.objective = " x ")), undefined, "not in normalised form"],
    ["an invalid request", edit((i) => (i.request.scope = [])), undefined, "not a valid fusion_validate request"],
    ["a session-projection input", sessionProjectionInput(), undefined, "does not match"],
  ])("refuses %s", (_name, json, ledger, fragment) => {
    const checked = checkValidateInput(json, ledger);
    expect(checked.ok ? "" : checked.error.code).toBe("context_capture_failed");
    expect(checked.ok ? "" : checked.error.message).toContain(fragment);
  });
});

function sessionProjectionInput(): string {
  const built = buildFusionInput({
    cwd: "/work/project",
    systemPrompt: "You are the parent agent.",
    policy: FUSION_TOOL_POLICY,
    requestText: "Review my change.",
    activeToolCallId: "call-active",
    messages: [
      { role: "user", content: "Please review the task store." },
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "call-active", name: "fusion_validate", arguments: { prompt: "Review my change." } },
        ],
      },
    ],
  });
  if (!built.ok) throw new Error(built.error.message);
  return built.value.inputJson;
}
