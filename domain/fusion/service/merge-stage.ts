import { err, ok, type Result } from "../../shared/model/result.ts";
import type { FusionEvaluation } from "../model/evaluation-schema.ts";
import type { FusionError } from "../model/fusion-error.ts";
import { attemptPrefix, STAGE_TOOLS_NONE } from "../model/fusion-workflow.ts";
import { checkOutputContract } from "../model/output-contracts.ts";
import { mergeInputDocument, type BlindCandidatesDocument } from "../model/stage-inputs.ts";
import { emit, type RunContext } from "./run-context.ts";
import { measure, runAttempt, type AttemptPlan, type Rejection } from "./stage-attempt.ts";

/** The no-tool merger on its pre-started child; the profile turns its answer into the final text. */
export async function runMerge(
  ctx: RunContext,
  blind: BlindCandidatesDocument,
  evaluation: FusionEvaluation,
): Promise<Result<string, FusionError>> {
  const plan: AttemptPlan = {
    stage: "merge",
    attempt: 1,
    budgetStage: "merge",
    route: ctx.routes.merger,
    tools: STAGE_TOOLS_NONE,
    systemPrompt: ctx.profile.mergerSystemPrompt,
    prompt: ctx.profile.prompts.merger(ctx.inputJson, mergeInputDocument(blind, evaluation)),
    signal: ctx.signal,
  };
  const measured = measure(ctx, plan);
  if (!measured.ok) return measured;
  emit(ctx, { type: "merge_started" });
  const accept = (text: string) => acceptMerge(ctx, text, evaluation, blind);
  const outcome = await runAttempt(
    ctx,
    plan,
    measured.value,
    ctx.pool.takePreStarted(attemptPrefix("merge", 1)),
    accept,
  );
  if (outcome.kind === "accepted") return ok(outcome.value);
  return err(outcome.error);
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
