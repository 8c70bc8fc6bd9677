import { describe, expect, it } from "vitest";
import { admitDelegate } from "./delegate-admission.ts";
import { utf8Bytes } from "../../shared/model/canonical-json.ts";
import { admissionInput, supportedEvidence } from "./delegate-fixtures.test-support.ts";

const codeOf = (input: Parameters<typeof admitDelegate>[0]): string => {
  const admitted = admitDelegate(input);
  if (admitted.ok) return "admitted";
  expect(admitted.error.childCreated).toBe(false);
  expect(admitted.error.message).toContain("Preserved:");
  return admitted.error.code;
};

describe("delegate admission, in order", () => {
  it("admits a well-formed request and measures the actual child prompt", () => {
    const admitted = admitDelegate(admissionInput());
    expect(admitted.ok).toBe(true);
    if (!admitted.ok) return;
    expect(admitted.value.budget.measured).toEqual({
      system_prompt_bytes: utf8Bytes("You are the parent."),
      child_prompt_bytes: utf8Bytes(admitted.value.childPrompt),
      total_bytes: utf8Bytes("You are the parent.") + utf8Bytes(admitted.value.childPrompt),
      estimated_tokens: utf8Bytes("You are the parent.") + utf8Bytes(admitted.value.childPrompt),
    });
  });

  it("checks the hook contract first, even before the arguments", () => {
    expect(codeOf(admissionInput({ hookContract: { evidence: undefined }, rawArguments: { bogus: 1 } }))).toBe(
      "delegate_hook_contract_unsupported",
    );
    expect(codeOf(admissionInput({ childPiVersion: "0.74.0" }))).toBe("delegate_hook_contract_unsupported");
  });

  it("then the arguments (capability and limits), then isolation, then the route", () => {
    expect(
      codeOf(
        admissionInput({ rawArguments: { name: "n", prompt: "p", capability: "edit" }, isolationProblems: ["x"] }),
      ),
    ).toBe("invalid_arguments");
    expect(codeOf(admissionInput({ rawArguments: { name: "n", prompt: "p", maxToolCalls: 0 } }))).toBe(
      "invalid_arguments",
    );
    expect(codeOf(admissionInput({ isolationProblems: ["the guard is missing"], currentRoute: undefined }))).toBe(
      "delegate_isolation_unsupported",
    );
    expect(codeOf(admissionInput({ currentRoute: { provider: "p", model: "gone" } }))).toBe("route_unresolved");
    expect(codeOf(admissionInput({ currentRoute: { provider: "p", model: "nowindow" } }))).toBe(
      "route_capacity_unknown",
    );
  });

  it("then the seed projection, then the budget over the child prompt", () => {
    expect(codeOf(admissionInput({ conversation: { ok: false, message: "session unreadable" } }))).toBe(
      "seed_projection_failed",
    );
    const unsupported = {
      ok: true as const,
      cwd: "/w",
      systemPrompt: "s",
      messages: [{ role: "assistant" as const, content: [{ type: "unsupported" as const, blockType: "video" }] }],
    };
    expect(codeOf(admissionInput({ conversation: unsupported }))).toBe("seed_projection_failed");
    const huge = {
      ok: true as const,
      cwd: "/w",
      systemPrompt: "s",
      messages: [{ role: "user" as const, content: "x".repeat(12_000) }],
    };
    expect(codeOf(admissionInput({ currentRoute: { provider: "p", model: "small" }, conversation: huge }))).toBe(
      "seed_budget_exceeded",
    );
    expect(codeOf(admissionInput({ currentRoute: { provider: "p", model: "big" }, conversation: huge }))).toBe(
      "admitted",
    );
  });

  it("refuses evidence that lacks a guarantee the guard relies on", () => {
    const weak = supportedEvidence();
    const broken = { ...weak, tool_result: { ...weak.tool_result, original_reaches_provider: true } };
    const admitted = admitDelegate(admissionInput({ hookContract: { evidence: broken } }));
    expect(admitted.ok ? [] : admitted.error.problems).toEqual([
      "a replaced tool result's original content never reaches the provider",
    ]);
  });
});
