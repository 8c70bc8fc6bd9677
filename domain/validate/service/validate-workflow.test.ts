import { describe, expect, it } from "vitest";
import type { FusionError } from "../../fusion/model/fusion-error.ts";
import { VALIDATE_PROFILE } from "../model/validate-profile.ts";
import { VALIDATE_STAGE_PROMPTS } from "../model/validate-prompts.ts";
import { runFusion } from "../../fusion/service/fusion-orchestrator.ts";
import { canonicalInputFixture, CANARY_ROUTES } from "../../fusion/service/fusion-fixtures.test-support.ts";
import type { Result } from "../../shared/model/result.ts";
import { buildValidateInput } from "../model/clean-task-input.ts";
import { normalizeValidateArguments } from "../model/validate-arguments.ts";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner, type FakeStageScript } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import {
  finding,
  includeAll,
  LIKELY_VIOLATIONS,
  review,
  validArguments,
} from "../model/validate-fixtures.test-support.ts";
import {
  evaluator,
  LOCATION,
  merger,
  scripts,
  validateHarness as harnessWith,
  type ValidateHarness as Harness,
} from "./validate-fixtures.test-support.ts";
import type { ValidateCompleted, ValidateRunError } from "./validate-run.ts";

type ValidateHarness = Harness<FakeFusionChildRunner, InMemoryFileCommitter>;

function validateHarness(stageScripts: Record<string, FakeStageScript>, seed = 11): ValidateHarness {
  const files = new InMemoryFileCommitter();
  return harnessWith({
    runner: new FakeFusionChildRunner(stageScripts, { files }),
    files,
    clock: new FakeClock(),
    random: new SeededRandomSource(seed),
  });
}

const CLEAN = review([], ["Checked that persist() is awaited before the notice."]);
const CRITICAL = finding({
  severity: "critical",
  summary: "Terminal state is published before metadata is durable.",
  location: "domain/tasks/service/task-runtime.ts:88 finish()",
});

async function completed(h: ValidateHarness, args?: unknown): Promise<ValidateCompleted> {
  const outcome = await settle(h, args);
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

async function settle(h: ValidateHarness, args?: unknown): Promise<Result<ValidateCompleted, ValidateRunError>> {
  const launch = await h.start(args);
  if (!launch.ok) throw new Error(`launch refused: ${launch.error.message}`);
  return launch.value.completion;
}

async function failure(h: ValidateHarness): Promise<ValidateRunError> {
  const outcome = await settle(h);
  if (outcome.ok) throw new Error("the run was expected to fail");
  return outcome.error;
}

describe("fusion_validate workflow: findings", () => {
  it("keeps a critical finding that only one reviewer reported", async () => {
    const h = validateHarness(scripts([CLEAN, review([CRITICAL]), CLEAN]));
    const done = await completed(h);
    expect(done.report).toContain("# Validation report");
    expect(done.report).toContain(`### 1. Critical: ${CRITICAL.summary}`);
    expect(done.report).toContain("Reported by 1 of 3 reviewers.");
    expect(done.report).toContain("Checked that persist() is awaited before the notice.");
    expect(done.report).not.toMatch(/[ABC]-F\d{3}/);
    expect(h.text(`${done.artifactDir}/merged.md`)).toBe(done.report);
    expect(done.details.workflow).toBe("validate");
    expect(done.details.context).toEqual({ kind: "clean_task", policy_id: "fusion-clean-task-v1" });
  });

  it("merges duplicate findings of different reviewers into one group at the highest severity", async () => {
    const racy = (severity: "high" | "critical", location: string) =>
      finding({ severity, location, summary: `Race between finish() and kill() (${severity}).` });
    const other = finding({
      severity: "minor",
      location: "domain/tasks/model/footer-summary.ts:10",
      summary: "Footer pluralises 1 task as '1 tasks'.",
    });
    const byFile = evaluator(includeAll((f) => (f.location.includes("task-runtime") ? "race" : `g-${f.id}`)));
    const h = validateHarness(
      scripts(
        [
          review([racy("high", "domain/tasks/service/task-runtime.ts:140 kill()")]),
          review([other]),
          review([racy("critical", "domain/tasks/service/task-runtime.ts:88 finish()")]),
        ],
        byFile,
      ),
    );
    const done = await completed(h);
    expect(done.report).toContain(
      "**Result:** 2 findings (1 critical, 0 high, 1 minor) from 3 source findings; 0 excluded.",
    );
    expect(done.report).toContain("### 1. Critical: Race between finish() and kill() (critical).");
    expect(done.report).toContain("Reported by 2 of 3 reviewers.");
    expect(done.report).toContain("- Also described as: Race between finish() and kill() (high).");
    expect(done.report).toContain("### 2. Minor: Footer pluralises");
    // The critical location sorts first inside the group: severity before location.
    expect(done.report).toMatch(
      /- Location:\n {2}- domain\/tasks\/service\/task-runtime\.ts:88 finish\(\)\n {2}- domain\/tasks\/service\/task-runtime\.ts:140 kill\(\)/,
    );
    expect(done.report).not.toMatch(/[Cc]andidate [ABC]|[ABC]-F\d{3}/);
  });

  it("lists an excluded finding with its reason and keeps it out of the findings", async () => {
    const wrong = finding({
      severity: "minor",
      summary: "Unused import in runtime.",
      location: "domain/tasks/service/task-runtime.ts:1",
    });
    const decide = evaluator((findings) =>
      findings.map((f) =>
        f.summary === wrong.summary
          ? {
              source_id: f.id,
              disposition: "exclude" as const,
              rationale: `${f.id} is wrong: the import is used by B's cited line 12.`,
            }
          : {
              source_id: f.id,
              disposition: "include" as const,
              rationale: "Confirmed by reading finish().",
              group_id: "g1",
            },
      ),
    );
    const h = validateHarness(scripts([review([CRITICAL]), review([wrong]), CLEAN], decide));
    const done = await completed(h);
    const [findings, excluded] = done.report.split("## Excluded source findings");
    expect(findings).toContain(CRITICAL.summary);
    expect(findings).not.toContain(wrong.summary);
    expect(excluded).toContain(`- Minor: ${wrong.summary}`);
    expect(excluded).toContain(
      "Reason: Another source finding is wrong: the import is used by one reviewer's cited line 12.",
    );
  });

  it("states what was verified when no reviewer reports a finding", async () => {
    const h = validateHarness(
      scripts([CLEAN, review([], ["Read the restart path in registry.ts."], ["Did not run the tests."]), CLEAN]),
    );
    const done = await completed(h);
    expect(done.report).toContain("No findings stand. None of the reviewers reported a finding.");
    const verified = done.report.split("## Verified\n\n")[1]?.split("\n\n## ")[0]?.split("\n").sort();
    // Two reviewers said the same thing: it is listed once.
    expect(verified).toEqual([
      "- Checked that persist() is awaited before the notice.",
      "- Read the restart path in registry.ts.",
    ]);
    expect(done.report).toContain("## Limitations\n\n- Did not run the tests.");
  });
});

describe("fusion_validate workflow: evaluator accounting", () => {
  const three = (): [string, string, string] => [
    review([CRITICAL]),
    review([finding()]),
    review([finding({ severity: "minor", summary: "Log line lacks the task id." })]),
  ];

  it("rejects an evaluation that skips a finding, then accepts the repair", async () => {
    const skipping = evaluator((findings) => includeAll()(findings).slice(1));
    const h = validateHarness({ ...scripts(three(), skipping), "evaluation.attempt-2": evaluator(includeAll(), 6) });
    const done = await completed(h);
    expect(done.details.evaluator_attempts).toBe(2);
    expect(h.runner.sentPrompt("evaluation.attempt-2")).toContain("no decision for A-F001");
    expect(done.report).toContain("3 findings");
  });

  it("fails as evaluation_invalid when the repair still decides a finding twice", async () => {
    const twice = evaluator((findings) => [...includeAll()(findings), ...includeAll()(findings).slice(0, 1)]);
    const h = validateHarness({ ...scripts(three(), twice), "evaluation.attempt-2": twice });
    const error = await failure(h);
    expect(error.code).toBe("evaluation_invalid");
    expect(error.message).toMatch(/decided 2 times/);
    expect(h.runner.sentPrompt("evaluation.attempt-2")).toContain("decided 2 times");
    expect(h.runner.sentPrompt("merge.attempt-1")).toBeUndefined();
    expect(h.files.listDir(dirOf(h))).not.toContain("result.json");
  });

  it("fails when the merger drops an included finding or revives an excluded one", async () => {
    const dropping = merger((included) => included.slice(1));
    const h = validateHarness(scripts(three(), evaluator(includeAll()), dropping));
    const error = await failure(h);
    expect(error.code).toBe("output_contract_violated");
    expect(error.message).toContain("the merger dropped included finding A-F001");
    expect(h.files.listDir(dirOf(h))).not.toContain("result.json");

    const excludeFirst = evaluator((findings) =>
      findings.map((f, i) =>
        i === 0
          ? { source_id: f.id, disposition: "exclude" as const, rationale: "Not supported by the code." }
          : { source_id: f.id, disposition: "include" as const, rationale: "Stands.", group_id: f.id },
      ),
    );
    const reviving = merger((included, excluded) => [...included, ...excluded]);
    const h2 = validateHarness(scripts(three(), excludeFirst, reviving));
    expect((await failure(h2)).message).toContain("revived excluded finding A-F001");
  });

  it("fails a reviewer whose answer is not the closed review JSON", async () => {
    const fenced = "```json\n" + review([CRITICAL]) + "\n```";
    const h = validateHarness(scripts([CLEAN, fenced, CLEAN]));
    const error = await failure(h);
    expect(error.code).toBe("output_contract_violated");
    expect(error).toMatchObject({ stage: "candidate", slot: 2 });
    expect(error.message).toContain("Markdown code fence");
  });
});

describe("fusion_validate workflow: isolation and refusals", () => {
  it("sends reviewers only the clean-task input, with inspect tools; later stages get no tools", async () => {
    const h = validateHarness(scripts([CLEAN, CLEAN, CLEAN]));
    const launch = await h.start();
    if (!launch.ok) throw new Error(launch.error.message);
    await launch.value.completion;
    const normalized = normalizeValidateArguments(validArguments());
    if (!normalized.ok) throw new Error("fixture arguments are invalid");
    const expected = VALIDATE_STAGE_PROMPTS.candidate(buildValidateInput(normalized.value, "/work/project").json);
    for (const slot of [1, 2, 3]) {
      expect(h.runner.sentPrompt(`candidate-${slot}.attempt-1`)).toBe(expected);
      expect(h.runner.specs.get(`candidate-${slot}.attempt-1`)?.tools).toEqual(["read", "grep", "find", "ls"]);
    }
    expect(h.runner.specs.get("evaluation.attempt-1")?.tools).toEqual([]);
    expect(h.runner.specs.get("merge.attempt-1")?.tools).toEqual([]);
    expect(expected).not.toMatch(/conversation_projection|system_prompt/);
    expect(h.files.listDir(launch.value.artifactDir)).not.toContain("context-omission-ledger.json");
  });

  it.each(LIKELY_VIOLATIONS)("refuses %s with zero children and no files", async (_name, raw, fragment) => {
    const h = validateHarness(scripts([CLEAN, CLEAN, CLEAN]));
    const launch = await h.start(raw);
    expect(launch.ok ? "launched" : launch.error.code).toBe("invalid_arguments");
    expect(launch.ok ? "" : launch.error.message).toContain(fragment.slice(0, 40));
    expect(h.runner.events).toEqual([]);
    expect(h.budget.preflights).toBe(0);
    expect(h.files.listDir("/work/project")).toBeUndefined();
  });

  it("refuses a contradicting capability before any artifact or child exists", async () => {
    const h = validateHarness({});
    const input = buildValidateInput(mustNormalize(validArguments()), "/work/project");
    const refused = await runFusion(h.ports, {
      ...baseRequest(h),
      canonicalInputJson: input.json,
      capability: "reason",
    });
    expectRefused(h, refused, "orchestration_failed");
  });

  it("refuses a session-projection input or a ledger: validate never carries the conversation", async () => {
    const h = validateHarness({});
    const v4 = canonicalInputFixture();
    expectRefused(
      h,
      await runFusion(h.ports, { ...baseRequest(h), canonicalInputJson: v4.json, ledgerJson: v4.ledgerJson }),
      "context_capture_failed",
    );
    const clean = buildValidateInput(mustNormalize(validArguments()), "/work/project");
    expectRefused(
      h,
      await runFusion(h.ports, { ...baseRequest(h), canonicalInputJson: clean.json, ledgerJson: v4.ledgerJson }),
      "context_capture_failed",
    );
    expectRefused(
      h,
      await runFusion(h.ports, {
        ...baseRequest(h),
        canonicalInputJson: JSON.stringify(JSON.parse(clean.json), null, 1),
      }),
      "context_capture_failed",
    );
  });

  it("launches once preflight is durable, without waiting for the reviewers", async () => {
    const h = validateHarness(scripts([CLEAN, CLEAN, CLEAN]));
    const launch = await h.start();
    if (!launch.ok) throw new Error(launch.error.message);
    expect(launch.value.runId).toMatch(/^v[0-9a-f]{32}$/);
    expect(launch.value.artifactDir).toBe(`/work/project/.pi/fusion/sess-1-4242/${launch.value.runId}`);
    const manifest = JSON.parse(h.text(`${launch.value.artifactDir}/manifest.json`) ?? "{}") as {
      state: string;
      capability: string;
    };
    expect(manifest).toMatchObject({ state: "candidates_running", capability: "inspect" });
    expect(h.text(`${launch.value.artifactDir}/budget-plan.json`)).toBeDefined();
    expect(h.runner.events.filter((e) => e.kind === "settled")).toEqual([]);
    const done = await launch.value.completion;
    expect(done.ok).toBe(true);
  });

  it("refuses a budget blocker at launch with zero children", async () => {
    const h = validateHarness({});
    const { recordingBudgetGate } = await import("../../fusion/service/fusion-fixtures.test-support.ts");
    const launch = await h.start(validArguments(), { budget: recordingBudgetGate({ block: true }) });
    expect(launch.ok).toBe(false);
    expect(launch.ok ? "" : launch.error.code).toBe("prompt_budget_exceeded_forecast");
    expect(h.runner.events).toEqual([]);
  });
});

function baseRequest(h: ValidateHarness) {
  return {
    profile: VALIDATE_PROFILE,
    source: "tool" as const,
    routes: CANARY_ROUTES,
    thinkingLevel: "medium",
    budget: h.budget,
    location: LOCATION,
  };
}

function mustNormalize(raw: unknown) {
  const normalized = normalizeValidateArguments(raw);
  if (!normalized.ok) throw new Error(normalized.error.message);
  return normalized.value;
}

function expectRefused(h: ValidateHarness, result: Result<unknown, FusionError>, code: string): void {
  expect(result.ok ? "completed" : result.error.code).toBe(code);
  expect(result.ok ? true : result.error.childCreated).toBe(false);
  expect(h.runner.events).toEqual([]);
  expect(h.files.listDir("/work/project")).toBeUndefined();
}

function dirOf(h: ValidateHarness): string {
  const spec = h.runner.specs.values().next().value;
  if (spec === undefined) throw new Error("no child was prepared");
  return spec.runDir;
}
