import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner, type FakeStageScript } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { buildToolAuditRecord, toolAuditLine } from "../model/tool-audit-record.ts";
import type { FusionError } from "../model/fusion-error.ts";
import {
  fusionHarness,
  happyScripts,
  recordingBudgetGate,
  STAGE_PREFIXES,
  TEST_CANDIDATE_EXTENSIONS,
  type FusionHarness,
} from "./fusion-fixtures.test-support.ts";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { serialiseReadScope } from "../../confinement/model/read-scope.ts";
import { FAKE_HOME } from "../../../adapters/fake/fake-fusion-child-runner.ts";

/** The fixture's project is /work/project, outside any repository the fake knows. */
const PROJECT_SCOPE = serialiseReadScope({
  root: "/work/project",
  denied: ["/work/project/.pi", `${FAKE_HOME}/.pi/agent`, "/proc", "/sys", "/dev"],
});

interface Harness extends FusionHarness {
  readonly runner: FakeFusionChildRunner;
  readonly files: InMemoryFileCommitter;
}

function harness(changes: Record<string, FakeStageScript> = {}): Harness {
  const files = new InMemoryFileCommitter();
  const runner = new FakeFusionChildRunner({ ...happyScripts(), ...changes }, { files });
  return {
    runner,
    files,
    ...fusionHarness({
      runner,
      files,
      clock: new FakeClock(),
      random: new SeededRandomSource(5),
      budget: recordingBudgetGate(),
    }),
  };
}

async function failure(h: Harness, overrides: Parameters<Harness["run"]>[0]): Promise<FusionError> {
  const result = await h.run(overrides);
  if (result.ok) throw new Error("the run was expected to fail");
  return result.error;
}

const CANDIDATES = ["candidate-1.attempt-1", "candidate-2.attempt-1", "candidate-3.attempt-1"];
const LATER = ["evaluation.attempt-1", "merge.attempt-1"];

const line = (ordinal: number, over?: Record<string, unknown>): string => {
  const record = buildToolAuditRecord(ordinal, {
    toolName: "read",
    toolCallId: `call_${ordinal}`,
    arguments: { value: { path: "a.ts" } },
    resultContent: [],
    resultDetails: undefined,
    isError: false,
    durationMs: 2,
  });
  return over === undefined ? toolAuditLine(record) : `${JSON.stringify({ ...record, ...over })}\n`;
};

describe("candidate capabilities: what each child is launched with", () => {
  it("inspect: the audit extension and a per-attempt log path for candidates; nothing for the evaluator and merger", async () => {
    const h = harness({ "candidate-2.attempt-1": { ...happyScripts()["candidate-2.attempt-1"], toolCalls: 3 } });
    const result = await h.run({ capability: "inspect", candidateEnv: { CALLER_VAR: "kept" } });
    if (!result.ok) throw new Error(result.error.message);
    const dir = result.value.details.artifact_dir;
    for (const prefix of CANDIDATES) {
      const spec = h.runner.specs.get(prefix);
      expect(spec?.tools).toEqual(["read", "grep", "find", "ls"]);
      expect(spec?.extensions).toEqual([TEST_CANDIDATE_EXTENSIONS.toolAudit]);
      expect(spec?.env).toEqual({
        CALLER_VAR: "kept",
        PI_FUSION_TOOL_CALL_LOG_PATH: `${dir}/${prefix}.tool-calls.jsonl`,
        PI_BG_READ_SCOPE: PROJECT_SCOPE,
      });
    }
    for (const prefix of LATER) {
      const spec = h.runner.specs.get(prefix);
      expect([spec?.tools, spec?.extensions, spec?.env]).toEqual([[], undefined, undefined]);
    }
    const attempts = h.manifest(dir).attempts;
    const log = h.files.contents(`${dir}/candidate-2.attempt-1.tool-calls.jsonl`) ?? new Uint8Array();
    expect(attempts.find((a) => a.prefix === "candidate-2.attempt-1")?.tool_audit).toEqual({
      file: "candidate-2.attempt-1.tool-calls.jsonl",
      calls: 3,
      bytes: log.length,
      sha256: sha256Hex(log),
    });
    expect(attempts.find((a) => a.prefix === "candidate-1.attempt-1")?.tool_audit).toMatchObject({
      calls: 0,
      bytes: 0,
    });
    for (const prefix of LATER) expect(attempts.find((a) => a.prefix === prefix)?.tool_audit).toBeUndefined();
  });

  it("research: web fetch before the audit extension, the research flag, and fusion_web_fetch in the allowlist", async () => {
    const h = harness();
    const result = await h.run({ capability: "research" });
    if (!result.ok) throw new Error(result.error.message);
    const dir = result.value.details.artifact_dir;
    for (const prefix of CANDIDATES) {
      const spec = h.runner.specs.get(prefix);
      expect(spec?.tools).toEqual(["read", "grep", "find", "ls", "fusion_web_fetch"]);
      expect(spec?.extensions).toEqual([TEST_CANDIDATE_EXTENSIONS.webFetch, TEST_CANDIDATE_EXTENSIONS.toolAudit]);
      expect(spec?.env).toEqual({
        PI_FUSION_RESEARCH_ENABLED: "1",
        PI_FUSION_TOOL_CALL_LOG_PATH: `${dir}/${prefix}.tool-calls.jsonl`,
        PI_BG_READ_SCOPE: PROJECT_SCOPE,
        PI_FUSION_SECRET_WINDOWS_PATH: `${dir}/secret-windows.json`,
        PI_FUSION_SECRET_WINDOWS_SHA256: sha256Hex(h.files.contents(`${dir}/secret-windows.json`) ?? new Uint8Array()),
      });
    }
    for (const prefix of LATER) expect(h.runner.specs.get(prefix)?.extensions).toBeUndefined();
    expect(result.value.details.tool_policy).toEqual({
      candidate_tools: ["read", "grep", "find", "ls", "fusion_web_fetch"],
      evaluation_tools: [],
      merge_tools: [],
    });
  });

  it("reason: no extensions, no protocol variables, and no audit log, even when the host offers the paths", async () => {
    const h = harness();
    const result = await h.run({ capability: "reason", candidateEnv: { CALLER_VAR: "x" } });
    if (!result.ok) throw new Error(result.error.message);
    for (const prefix of CANDIDATES) {
      expect(h.runner.specs.get(prefix)?.extensions).toBeUndefined();
      expect(h.runner.specs.get(prefix)?.env).toEqual({ CALLER_VAR: "x" });
    }
    expect(
      (h.files.listDir(result.value.details.artifact_dir) ?? []).filter((n) => n.endsWith(".tool-calls.jsonl")),
    ).toEqual([]);
  });

  it("can start the evaluator and merger only when their prompt exists (pre-starting off)", async () => {
    const h = harness();
    const result = await h.run({ preStartLaterStages: false });
    if (!result.ok) throw new Error(result.error.message);
    const lastCandidateSettled = Math.max(...CANDIDATES.map((p) => h.runner.indexOf("settled", p)));
    expect(h.runner.indexOf("prepare", "evaluation.attempt-1")).toBeGreaterThan(lastCandidateSettled);
    expect(h.runner.indexOf("prepare", "merge.attempt-1")).toBeGreaterThan(
      h.runner.indexOf("settled", "evaluation.attempt-1"),
    );
    expect(h.manifest(result.value.details.artifact_dir).attempts.filter((a) => a.pre_started)).toEqual([]);
    expect(h.runner.prepared.sort()).toEqual([...STAGE_PREFIXES].sort());
  });
});

describe("candidate capabilities: refusals before anything exists", () => {
  const refusals: Array<[string, Parameters<Harness["run"]>[0], RegExp]> = [
    ["inspect without the host's extensions", { capability: "inspect", candidateExtensions: undefined }, /unaudited/],
    ["research without the host's extensions", { capability: "research", candidateExtensions: undefined }, /web fetch/],
    [
      "a caller env that sets the audit path",
      { capability: "inspect", candidateEnv: { PI_FUSION_TOOL_CALL_LOG_PATH: "/tmp/x" } },
      /may not set PI_FUSION_TOOL_CALL_LOG_PATH/,
    ],
    [
      "a caller env that sets the research flag",
      { capability: "reason", candidateEnv: { PI_FUSION_RESEARCH_ENABLED: "1" } },
      /may not set PI_FUSION_RESEARCH_ENABLED/,
    ],
    [
      "relative extension paths",
      { capability: "inspect", candidateExtensions: { webFetch: "w.ts", toolAudit: "/a.ts" } },
      /must be absolute/,
    ],
  ];
  it.each(refusals)("refuses %s with zero children", async (_name, overrides, message) => {
    const h = harness();
    const error = await failure(h, overrides);
    expect([error.code, error.stage, error.childCreated]).toEqual(["orchestration_failed", "preflight", false]);
    expect(error.message).toMatch(message);
    expect(h.runner.events).toEqual([]);
    expect(h.files.listDir("/work/project/.pi/fusion")).toBeUndefined();
  });
});

describe("candidate capabilities: the tool-call audit log is verified after each candidate", () => {
  const faults: Array<[string, FakeStageScript, string]> = [
    ["a partial last line", { toolCalls: 2, auditLog: { bytes: line(1) + line(2).slice(0, -5) } }, "partial_line"],
    ["a gap in the ordinals", { toolCalls: 2, auditLog: { bytes: line(1) + line(3) } }, "ordinal_gap"],
    ["a duplicate ordinal", { toolCalls: 2, auditLog: { bytes: line(1) + line(1) } }, "duplicate_ordinal"],
    [
      "a wrong schema version",
      { toolCalls: 1, auditLog: { bytes: line(1, { schema_version: "pi-background-tasks.fusion-tool-call.v0" }) } },
      "schema_version",
    ],
    [
      "raw arguments in a record",
      { toolCalls: 1, auditLog: { bytes: line(1, { arguments: { path: "a.ts" } }) } },
      "invalid_record",
    ],
    ["no log at all", { toolCalls: 0, auditLog: { missing: true } }, "missing"],
    ["fewer lines than the calls the child reported", { toolCalls: 1, reportedToolCalls: 2 }, "count_mismatch"],
  ];
  it.each(faults)(
    "%s fails the run loudly as tool_audit_invalid, with the answer kept but unused",
    async (_name, fault, reason) => {
      const base = happyScripts()["candidate-3.attempt-1"];
      const h = harness({ "candidate-3.attempt-1": { ...base, ...fault } });
      const error = await failure(h, { capability: "research" });
      expect([error.code, error.stage, error.slot, error.terminal]).toEqual([
        "tool_audit_invalid",
        "candidate",
        3,
        "failed",
      ]);
      expect(error.details).toMatchObject({
        prefix: "candidate-3.attempt-1",
        file: "candidate-3.attempt-1.tool-calls.jsonl",
        reason,
      });
      const dir = error.artifactDir ?? "";
      const manifest = h.manifest(dir);
      expect(manifest.state).toBe("failed");
      expect(manifest.attempts.find((a) => a.prefix === "candidate-3.attempt-1")).toMatchObject({
        status: "failed",
        error_code: "tool_audit_invalid",
      });
      expect(h.read(dir, "candidate-3.attempt-1.response.md")).toBe(base?.answer);
      expect(h.errorRecord(dir)).toMatchObject({ code: "tool_audit_invalid", status: "failed", details: { reason } });
      expect(h.runner.liveChildren()).toEqual([]);
      expect(h.runner.sentPrompt("evaluation.attempt-1")).toBeUndefined();
    },
  );

  it("a failed candidate is judged by its child error, not by its (possibly cut) audit log", async () => {
    const h = harness({ "candidate-1.attempt-1": { fail: { code: "child_exit_failed" }, auditLog: { bytes: "{" } } });
    const error = await failure(h, { capability: "inspect" });
    expect(error.code).toBe("child_exit_failed");
  });
});
