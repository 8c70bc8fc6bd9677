import { describe, expect, it } from "vitest";
import type { Result } from "../../shared/model/result.ts";
import { finding, includeAll, review } from "../model/validate-fixtures.test-support.ts";
import { evaluator, merger, scripts } from "./validate-fixtures.test-support.ts";
import { CLEAN, completed, CRITICAL, dirOf, failure, validateHarness } from "./validate-workflow.test-support.ts";

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
});
