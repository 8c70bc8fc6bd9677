import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { admitDelegate } from "./delegate-admission.ts";
import { seedLineOf } from "./delegate-prompt.ts";
import { buildDelegateSeed, DELEGATE_SEED_SCHEMA, type SeedSource } from "./delegate-seed.ts";
import { ACTIVE, admissionInput, branch, SECRET, SIBLING } from "./delegate-fixtures.test-support.ts";

const source = (overrides: Partial<SeedSource> = {}): SeedSource => ({
  cwd: "/work",
  systemPrompt: "You are the parent.",
  messages: branch(),
  activeToolCallId: ACTIVE,
  prompt: "  Review parse() — verbatim  ",
  capability: "inspect",
  route: { provider: "p", model: "big", contextWindow: 200_000, source: "parent_current" },
  limits: { maxTurns: 24, maxToolCalls: 120, timeoutSeconds: 1200 },
  capacityTokens: 171_328,
  ...overrides,
});

function built(overrides: Partial<SeedSource> = {}) {
  const seed = buildDelegateSeed(source(overrides));
  if (!seed.ok) throw new Error(seed.error.message);
  return seed.value;
}

describe("delegate seed", () => {
  it("keeps visible text verbatim, the directive exact, and hashes the canonical bytes", () => {
    const seed = built();
    expect(seed.seed.schema_version).toBe(DELEGATE_SEED_SCHEMA);
    expect(seed.seed.policy_id).toBe("delegate-inspect-v1");
    expect(seed.seed.request).toMatchObject({
      authority: "explicit_text",
      source: "tool",
      text: "  Review parse() — verbatim  ",
    });
    expect(seed.seedSha256).toBe(sha256Hex(seed.seedJson));
    const texts = seed.seed.conversation_projection.entries.filter((e) => e[0] === "t").map((e) => e[4]);
    expect(texts).toEqual([
      "Look at this screenshot  (two spaces kept)",
      "[Image omitted from delegate text transcript: image/png]",
      "Reading the file.",
      "The file defines parse().",
      "Now get two opinions.",
    ]);
  });

  it("omits thinking, tool arguments, tool output and image bytes, accounting for each in the ledger", () => {
    const seed = built();
    for (const secret of Object.values(SECRET)) expect(seed.seedJson).not.toContain(secret);
    expect(seed.seedJson).toContain("[Image omitted from delegate text transcript: image/png]");
    const kinds = seed.ledger.entries.map((row) => row.kind).sort();
    expect(kinds).toEqual(["assistant_thinking", "tool_call_arguments", "tool_result_text", "user_image"]);
    expect(seed.seed.conversation_projection.ledger.root_sha256).toBe(seed.ledger.root_sha256);
  });

  it("scopes out the whole assistant message of the active call, so siblings see identical history and not each other", () => {
    const first = built({ activeToolCallId: ACTIVE, prompt: "first" });
    const second = built({ activeToolCallId: SIBLING, prompt: "second" });
    expect(first.seed.conversation_projection).toEqual(second.seed.conversation_projection);
    expect(first.ledgerJson).toBe(second.ledgerJson);
    expect(first.seedJson).not.toContain("Launching.");
    expect(first.seedJson).not.toContain(SECRET.sibling);
    expect(first.seed.conversation_projection.branch_filter).toEqual({
      id: "exclude-active-delegate-call-v1",
      active_tool_call_leaf_excluded: true,
    });
  });

  it("is byte-identical when built again from the same session", () => {
    expect(built().seedJson).toBe(built().seedJson);
  });

  it("never claims a Fusion schema, policy, hash domain or wording", () => {
    const seed = built();
    expect(seed.seedJson.toLowerCase()).not.toContain("fusion");
    expect(seed.ledgerJson.toLowerCase()).not.toContain("fusion");
  });

  it("refuses an unprojectable conversation as seed_projection_failed", () => {
    const refused = buildDelegateSeed(
      source({ messages: [{ role: "user", content: [{ type: "unsupported", blockType: "audio" }] }] }),
    );
    expect(refused.ok ? refused.value : refused.error).toMatchObject({
      code: "seed_projection_failed",
      childCreated: false,
    });
    const surrogate = buildDelegateSeed(source({ prompt: "bad \ud800 text" }));
    expect(surrogate.ok ? surrogate.value : surrogate.error.code).toBe("seed_projection_failed");
  });

  it("frames exactly the seed bytes in the child prompt, which has no surrounding whitespace", () => {
    const admitted = admitDelegate(admissionInput());
    if (!admitted.ok) throw new Error(admitted.error.message);
    const { childPrompt, seed } = admitted.value;
    expect(seedLineOf(childPrompt)).toBe(seed.seedJson);
    expect(childPrompt.trim()).toBe(childPrompt);
    expect(childPrompt).toContain("at most 24 model turns and 120 tool calls");
  });
});
