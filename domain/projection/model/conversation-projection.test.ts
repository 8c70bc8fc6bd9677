import { describe, expect, it } from "vitest";
import { assistant, call, image, result, text, think, user } from "../fixtures/message-builders.ts";
import { projectConversation } from "./conversation-projection.ts";
import { DELEGATE_POLICY, FUSION_COMMAND_POLICY, FUSION_TOOL_POLICY } from "./projection-policy.ts";
import type { SourceMessage } from "./source-message.ts";

const branch: SourceMessage[] = [
  user(text("inspect the repo"), image("image/png", "AAAA")),
  assistant(think("t"), text("looking"), call("c1", "read", { path: "a.ts" })),
  result("c1", "read", text("contents"), image("image/png", "BBBB")),
  assistant(text("two delegates"), call("d1", "bg_delegate", { name: "a" }), call("d2", "bg_delegate", { name: "b" })),
];

function project(policy = DELEGATE_POLICY, activeToolCallId?: string) {
  const projected = projectConversation({
    messages: branch,
    policy,
    ...(activeToolCallId === undefined ? {} : { activeToolCallId }),
  });
  if (!projected.ok) throw new Error(projected.error.message);
  return projected.value;
}

describe("projectConversation, shared by Fusion and delegates", () => {
  it("gives two delegates launched in one message the identical projection and ledger", () => {
    const first = project(DELEGATE_POLICY, "d1");
    const second = project(DELEGATE_POLICY, "d2");
    expect(second.projection).toEqual(first.projection);
    expect(second.ledgerJson).toBe(first.ledgerJson);
    expect(first.projection.entries.some((e) => e[0] === "t" && e[4] === "two delegates")).toBe(false);
  });

  it("never claims a Fusion schema, hash domain or wording for a delegate", () => {
    const { projection, ledgerJson } = project(DELEGATE_POLICY, "d1");
    expect(`${JSON.stringify(projection)}${ledgerJson}`.toLowerCase()).not.toContain("fusion");
    expect(projection.ledger.schema_version).toBe("pi-background-tasks.delegate-context-ledger.v1");
  });

  it("shares the transform: the same branch yields the same rows for either family, under different roots", () => {
    const delegate = project(DELEGATE_POLICY, "d1");
    const fusion = project(FUSION_TOOL_POLICY, "d1");
    expect(fusion.ledger.entries).toEqual(delegate.ledger.entries);
    expect(fusion.ledger.root_sha256).not.toBe(delegate.ledger.root_sha256);
    expect(fusion.projection.entries.length).toBe(delegate.projection.entries.length);
  });

  it("scopes nothing out for a command, which has no call in flight", () => {
    const command = project(FUSION_COMMAND_POLICY, "d1");
    expect(command.projection.branch_filter.active_tool_call_leaf_excluded).toBe(false);
    expect(command.projection.entries.some((e) => e[0] === "t" && e[4] === "two delegates")).toBe(true);
  });

  it("requires the active call id for a tool policy", () => {
    const projected = projectConversation({ messages: branch, policy: DELEGATE_POLICY });
    expect(projected.ok ? undefined : projected.error.code).toBe("context_active_call_required");
  });
});
