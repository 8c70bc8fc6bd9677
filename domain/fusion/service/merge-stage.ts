import { err, ok, type Result } from "../../shared/model/result.ts";
import type { FusionEvaluation } from "../model/evaluation-schema.ts";
import { fusionError, type FusionError } from "../model/fusion-error.ts";
import { attemptPrefix } from "../model/fusion-workflow.ts";
import { checkOutputContract } from "../model/output-contracts.ts";
import { boundRepairErrors } from "../model/repair-errors.ts";
import { mergeInputDocument, type BlindCandidatesDocument } from "../model/stage-inputs.ts";
import { emit, type RunContext } from "./run-context.ts";
import { laterStagePlan } from "./attempt-plan.ts";
import { measure, runAttempt, type AttemptOutcome, type AttemptPlan, type Rejection } from "./stage-attempt.ts";

/** The final text, and whether the merger's narrative was refused (the text then stands without it). */
export interface MergedText {
  readonly text: string;
  readonly narrativeIncomplete: boolean;
}

/**
 * The no-tool merger on its pre-started child; the profile turns its answer into the final text. A
 * workflow with a merge repair gives a refused answer one repair, and when that is refused too the run
 * still completes with the final text the profile renders without the narrative; one without gets a
 * second attempt only for a blank or cut-off answer.
 */
export async function runMerge(
  ctx: RunContext,
  blind: BlindCandidatesDocument,
  evaluation: FusionEvaluation,
): Promise<Result<MergedText, FusionError>> {
  const merge = mergeInputDocument(blind, evaluation);
  const accept = (text: string) => acceptMerge(ctx, text, evaluation, blind);
  const first = laterStagePlan(
    ctx,
    "merge",
    1,
    ctx.profile.mergerSystemPrompt,
    ctx.profile.prompts.merger(ctx.inputJson, merge),
  );
  const measured = measure(ctx, first);
  if (!measured.ok) return measured;
  emit(ctx, { type: "merge_started" });
  const outcome = await runAttempt(
    ctx,
    first,
    measured.value,
    ctx.pool.takePreStarted(attemptPrefix("merge", 1)),
    accept,
  );
  const repair = ctx.profile.mergeRepair;
  if (outcome.kind !== "rejected") return settled(outcome);
  if (repair === undefined) return settled(await againIfIncomplete(ctx, first, outcome, accept));
  const errors = boundRepairErrors(outcome.rejection.problems);
  const second = laterStagePlan(
    ctx,
    "merge",
    2,
    repair.systemPrompt,
    repair.prompt(ctx.inputJson, merge, outcome.text, errors),
  );
  const secondMeasured = measure(ctx, second);
  if (!secondMeasured.ok) return secondMeasured;
  emit(ctx, { type: "merge_retry", errors: errors.total });
  const repaired = await runAttempt(ctx, second, secondMeasured.value, undefined, accept);
  if (repaired.kind !== "rejected") return settled(repaired);
  const withoutNarrative = repair.withoutNarrative(evaluation, blind);
  if (!withoutNarrative.ok)
    return err(
      fusionError(withoutNarrative.error.code, withoutNarrative.error.message, {
        stage: "merge",
        attempt: 2,
        childCreated: true,
      }),
    );
  emit(ctx, { type: "narrative_incomplete", problems: repaired.rejection.problems.length });
  return ok({ text: withoutNarrative.value, narrativeIncomplete: true });
}

/**
 * Without a merge repair, a blank answer or one cut at the output limit is asked once more exactly as
 * before (the prompt already forecast): the merger contract is unchanged, only the attempt is new.
 */
async function againIfIncomplete(
  ctx: RunContext,
  first: AttemptPlan,
  rejected: Extract<AttemptOutcome<string>, { kind: "rejected" }>,
  accept: (text: string) => Result<string, Rejection>,
): Promise<AttemptOutcome<string>> {
  const blank = checkOutputContract("merge", rejected.text)?.reason === "blank";
  if (!blank && rejected.rejection.cutOff !== true) return rejected;
  const again = { ...first, attempt: 2 };
  const measured = measure(ctx, again);
  if (!measured.ok) return { kind: "failed", error: measured.error };
  emit(ctx, { type: "merge_retry", errors: rejected.rejection.problems.length });
  return runAttempt(ctx, again, measured.value, undefined, accept);
}

function settled(outcome: AttemptOutcome<string>): Result<MergedText, FusionError> {
  return outcome.kind === "accepted" ? ok({ text: outcome.value, narrativeIncomplete: false }) : err(outcome.error);
}

function acceptMerge(
  ctx: RunContext,
  text: string,
  evaluation: FusionEvaluation,
  blind: BlindCandidatesDocument,
): Result<string, Rejection> {
  const contract = checkOutputContract("merge", text);
  if (contract !== undefined)
    return err({
      code: "output_contract_violated",
      message: `merged answer refused: ${contract.message}`,
      problems: [contract.message],
    });
  const final = ctx.profile.finalText(text, evaluation, blind);
  if (final.ok) return final;
  return err({ code: final.error.code, message: final.error.message, problems: [final.error.message] });
}
