import { err, ok, type Result } from "../../shared/model/result.ts";
import { checkEvaluationText, type EvaluationExpectation } from "../model/evaluation-check.ts";
import type { FusionEvaluation } from "../model/evaluation-schema.ts";
import { fusionError, type FusionError } from "../model/fusion-error.ts";
import { attemptPrefix } from "../model/fusion-workflow.ts";
import { boundRepairErrors } from "../model/repair-errors.ts";
import { repairInputDocument, type BlindCandidatesDocument } from "../model/stage-inputs.ts";
import { emit, type RunContext } from "./run-context.ts";
import { laterStagePlan } from "./attempt-plan.ts";
import { measure, runAttempt, type Rejection } from "./stage-attempt.ts";

/**
 * The blind evaluator, then at most one repair fed the bounded validation errors. The first
 * attempt uses the pre-started child; the repair child starts only if it is needed.
 */
export async function runEvaluation(
  ctx: RunContext,
  blind: BlindCandidatesDocument,
): Promise<Result<FusionEvaluation, FusionError>> {
  const expectation: EvaluationExpectation =
    blind.host_findings === undefined ? {} : { hostFindings: blind.host_findings };
  const accept = (text: string) => acceptEvaluation(text, expectation);
  const first = laterStagePlan(
    ctx,
    "evaluation",
    1,
    ctx.profile.evaluatorSystemPrompt,
    ctx.profile.prompts.evaluator(ctx.inputJson, blind),
  );
  const firstMeasured = measure(ctx, first);
  if (!firstMeasured.ok) return firstMeasured;
  emit(ctx, { type: "evaluation_started", attempt: 1, repair: false });
  const outcome = await runAttempt(
    ctx,
    first,
    firstMeasured.value,
    ctx.pool.takePreStarted(attemptPrefix("evaluation", 1)),
    accept,
  );
  if (outcome.kind === "accepted") return ok(outcome.value);
  if (outcome.kind === "failed") return err(outcome.error);

  const bounded = boundRepairErrors(outcome.rejection.problems);
  emit(ctx, { type: "evaluation_retry", errors: bounded.total });
  const repair = laterStagePlan(
    ctx,
    "evaluation",
    2,
    ctx.profile.repairSystemPrompt,
    ctx.profile.prompts.repair(ctx.inputJson, repairInputDocument(blind, outcome.text, bounded)),
  );
  const repairMeasured = measure(ctx, repair);
  if (!repairMeasured.ok) return repairMeasured;
  emit(ctx, { type: "evaluation_started", attempt: 2, repair: true });
  const second = await runAttempt(ctx, repair, repairMeasured.value, undefined, accept);
  if (second.kind === "accepted") return ok(second.value);
  if (second.kind === "failed") return err(second.error);
  const final = boundRepairErrors(second.rejection.problems);
  return err(
    fusionError(
      "evaluation_invalid",
      `the evaluation was still invalid after one repair attempt: ${final.shown[0] ?? "no detail"}`,
      {
        stage: "evaluation",
        attempt: 2,
        childCreated: true,
        details: {
          prefix: second.prefix,
          errors: final.shown,
          errors_total: final.total,
          errors_omitted: final.omitted,
        },
      },
    ),
  );
}

function acceptEvaluation(text: string, expectation: EvaluationExpectation): Result<FusionEvaluation, Rejection> {
  const checked = checkEvaluationText(text, expectation);
  if (checked.ok) return checked;
  const problems = checked.error.errors;
  return err({
    code: "evaluation_invalid",
    message: `the evaluation is invalid: ${problems[0] ?? "no detail"}`,
    problems,
  });
}
