import { describe, expect, it } from "vitest";
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { ZERO_USAGE } from "../../shared/model/usage.ts";
import { childTerminal } from "./child-terminal.ts";
import { attestation } from "./delegate-fixtures.test-support.ts";
import { adjudicate, type ChildEnd } from "./delegate-outcome.ts";
import { buildResultPackage, type ResultIdentity } from "./result-package.ts";
import { answerView, notReady, taskUnknown, unavailable } from "./delegate-result-view.ts";

const identity: ResultIdentity = {
  taskId: "dt",
  launchNonce: "1".repeat(32),
  seedSha256: "2".repeat(64),
  route: { provider: "p", model: "big" },
};
const counters = { turns: 1, tool_calls: 0, spilled_results: 0, tool_output_bytes: 0 };
const encode = (text: string) => new TextEncoder().encode(text);
const end = (overrides: Partial<ChildEnd> = {}): ChildEnd => ({
  pid: 7,
  exitCode: 0,
  signal: null,
  timedOut: false,
  cancelled: false,
  stdoutBytes: 10,
  stderrBytes: 0,
  ...overrides,
});

function resultBytes(answer: string): Uint8Array {
  const built = buildResultPackage(identity, answer, [attestation(0)], counters);
  if (!built.ok) throw new Error(built.error.message);
  return encode(built.value.json);
}

const terminalBytes = (code: "provider_context_budget_exhausted" | "route_mismatch", nonce = identity.launchNonce) =>
  encode(canonicalJsonOf(childTerminal(identity.taskId, nonce, { code, reason: "why", hook: "context" }, counters)));

const judge = (input: { result?: Uint8Array; terminal?: Uint8Array; end?: ChildEnd }) =>
  adjudicate({
    identity,
    artifactDir: "/a",
    resultBytes: input.result,
    terminalBytes: input.terminal,
    end: input.end ?? end(),
  }).outcome;

describe("parent adjudication", () => {
  it("a committed, verified package completes the run whatever the exit", () => {
    const outcome = judge({
      result: resultBytes("fine"),
      end: end({ exitCode: null, signal: "SIGTERM", timedOut: true }),
    });
    expect(outcome).toMatchObject({
      state: "completed",
      error: null,
      answer: { present: true, utf8_bytes: 4, inline_eligible: true, artifact: "answer.md" },
    });
  });

  it("a committed package that fails verification fails the run with its integrity code", () => {
    const bytes = resultBytes("fine");
    bytes[bytes.length - 5] = 0x30 === bytes[bytes.length - 5] ? 0x31 : 0x30;
    expect(judge({ result: bytes }).error?.code).toMatch(/child_result_invalid|answer_hash_mismatch/);
  });

  it("without a commit: cancelled, then timed out, then the child's own failure, then exited without commit", () => {
    expect(
      judge({ terminal: terminalBytes("route_mismatch"), end: end({ cancelled: true, timedOut: true }) }),
    ).toMatchObject({ state: "cancelled", error: { code: "child_cancelled" } });
    expect(judge({ terminal: terminalBytes("route_mismatch"), end: end({ timedOut: true }) })).toMatchObject({
      state: "timed_out",
      error: { code: "child_timeout" },
    });
    expect(judge({ terminal: terminalBytes("provider_context_budget_exhausted") })).toMatchObject({
      state: "failed",
      error: { code: "provider_context_budget_exhausted" },
    });
    const silent = judge({});
    expect(silent).toMatchObject({
      state: "failed",
      usage: "unavailable",
      answer: { present: false, reason: "child_exited_without_commit" },
    });
    expect(silent.error?.happened).toContain("exited with code 0");
    expect(silent.error?.preserved).toContain("/a");
  });

  it("a terminal record of another launch is not trusted", () => {
    expect(judge({ terminal: terminalBytes("route_mismatch", "9".repeat(32)) }).error?.code).toBe("artifact_error");
  });
});

describe("bg_result view", () => {
  const outcome = judge({ result: resultBytes("x") });
  const verified = (size: number) => {
    const text = "a".repeat(size);
    return {
      bytes: encode(text),
      text,
      sha256: "f".repeat(64),
      packageSha256: "e".repeat(64),
      usage: "unavailable" as const,
      attestations: [],
    };
  };

  it("is inline up to 48 KiB and an explicit artifact reference above, never truncated", () => {
    const small = answerView("dt", outcome, verified(49_152), "/a/answer.md", undefined, "memory", false);
    expect(small.ok && small.value.delivery).toBe("inline");
    const large = answerView("dt", outcome, verified(49_153), "/a/answer.md", undefined, "memory", false);
    expect(large.ok && large.value.delivery === "artifact" && large.value.answer).toMatchObject({
      artifact: "/a/answer.md",
      utf8_bytes: 49_153,
    });
    const demanded = answerView("dt", outcome, verified(49_153), "/a/answer.md", "inline", "memory", false);
    expect(demanded.ok ? demanded.value : demanded.error).toMatchObject({ code: "result_too_large_for_inline" });
    expect(demanded.ok ? "" : demanded.error.preserved).toContain("/a/answer.md");
    const asked = answerView("dt", outcome, verified(10), "/a/answer.md", "artifact", "memory", false);
    expect(asked.ok && asked.value.delivery).toBe("artifact");
  });

  it("attaches usage only on the first serve, and never an unavailable one", () => {
    const counted = { ...verified(10), usage: { ...ZERO_USAGE, input: 5, output: 7 } };
    const first = answerView("dt", outcome, counted, "/a/answer.md", undefined, "memory", true);
    expect(first.ok && first.value).toMatchObject({ usage: { input: 5, output: 7 }, usage_attached: true });
    const later = answerView("dt", outcome, counted, "/a/answer.md", undefined, "memory", false);
    expect(later.ok && later.value).toMatchObject({ usage_attached: false });
    const none = answerView("dt", outcome, verified(10), "/a/answer.md", undefined, "memory", true);
    expect(none.ok && none.value).toMatchObject({ usage: "unavailable", usage_attached: false });
  });

  it("says not ready, unavailable or unknown in typed terms", () => {
    expect(notReady("dt")).toMatchObject({ state: "running", delivery: "none", code: "result_not_ready" });
    const failed = judge({ terminal: terminalBytes("route_mismatch") });
    if (failed.error === null) throw new Error("expected a failure");
    expect(unavailable({ ...failed, error: failed.error })).toMatchObject({
      state: "failed",
      code: "result_unavailable",
      error: { code: "route_mismatch" },
    });
    expect(taskUnknown("nope")).toMatchObject({ code: "task_unknown", childCreated: false });
  });
});
