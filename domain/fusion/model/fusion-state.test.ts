import { describe, expect, it } from "vitest";
import { checkTransition, isLegalTransition, isTerminalState, type FusionState } from "./fusion-state.ts";
import { beginAttempt, endAttempt, newManifest, transitionManifest, type FusionManifest } from "./fusion-manifest.ts";
import { addUsage, ZERO_USAGE } from "../../shared/model/usage.ts";

const PATH: FusionState[] = [
  "initializing",
  "candidates_running",
  "candidates_complete",
  "evaluating",
  "evaluation_complete",
  "merging",
  "completed",
];
const ALL: FusionState[] = [...PATH, "failed", "cancelled"];

function manifest(): FusionManifest {
  const route = { provider: "p", model: "m", thinking: "low" };
  return newManifest({
    run_id: `f${"0".repeat(32)}`,
    workflow: "brainstorm",
    source: "tool",
    capability: "reason",
    artifact_dir: "/x",
    created_at: "2025-01-01T00:00:00.000Z",
    input: { schema_version: "v4", sha256: "0".repeat(64), bytes: 2 },
    routes: { candidates: [route, route, route], evaluator: route, merger: route },
    tool_policy: { candidate_tools: [], evaluation_tools: [], merge_tools: [] },
  });
}

describe("Fusion state machine", () => {
  it("allows exactly the forward path and the two terminals from every live state", () => {
    for (const from of ALL) {
      for (const to of ALL) {
        const i = PATH.indexOf(from);
        const expected =
          !isTerminalState(from) && (to === "failed" || to === "cancelled" || (i >= 0 && PATH[i + 1] === to));
        expect(isLegalTransition(from, to), `${from} → ${to}`).toBe(expected);
      }
    }
  });

  it("refuses an illegal transition as state_transition_invalid and leaves the manifest unchanged", () => {
    const start = manifest();
    const skipped = transitionManifest(start, "evaluating", "t");
    expect(skipped.ok).toBe(false);
    if (!skipped.ok)
      expect(skipped.error).toMatchObject({ code: "state_transition_invalid", from: "initializing", to: "evaluating" });
    expect(start.state).toBe("initializing");
    const failed = transitionManifest(start, "failed", "t");
    if (!failed.ok) throw new Error("failed must be reachable");
    expect(transitionManifest(failed.value, "cancelled", "t").ok).toBe(false);
    expect(checkTransition("completed", "failed").ok).toBe(false);
    expect(checkTransition("merging", "candidates_running").ok).toBe(false);
  });

  it("folds each attempt's usage in once and lists unknown usage separately", () => {
    const route = { provider: "p", model: "m", thinking: "low" };
    const usage = { ...ZERO_USAGE, input: 5, totalTokens: 5, cost: { ...ZERO_USAGE.cost, input: 0.5, total: 0.5 } };
    const base = {
      stage: "candidate" as const,
      attempt: 1,
      route,
      tools: [],
      pre_started: false,
      launch_tries: 1,
      status: "running" as const,
      system_prompt_sha256: "s",
      prompt_sha256: "p",
      prompt_bytes: 1,
      started_at: "t",
      usage: "unavailable" as const,
      observed: [],
    };
    let m = beginAttempt(manifest(), { ...base, prefix: "candidate-1.attempt-1", slot: 1 });
    m = beginAttempt(m, { ...base, prefix: "candidate-2.attempt-1", slot: 2 });
    m = endAttempt(m, "candidate-1.attempt-1", { status: "completed", ended_at: "t", usage, observed: [] });
    m = endAttempt(m, "candidate-2.attempt-1", { status: "failed", ended_at: "t", usage: "unavailable", observed: [] });
    expect(m.usage).toEqual(addUsage(ZERO_USAGE, usage));
    expect(m.usage_unavailable).toEqual(["candidate-2.attempt-1"]);
    expect(() =>
      endAttempt(m, "candidate-1.attempt-1", { status: "completed", ended_at: "t", usage, observed: [] }),
    ).toThrow();
  });
});
