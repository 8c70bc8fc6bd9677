import { candidateRepairStage } from "../model/fusion-budget-gate.ts";
import { fusionError } from "../model/fusion-error.ts";
import { STAGE_TOOLS_NONE, type CandidateSlot } from "../model/fusion-workflow.ts";
import { checkOutputContract } from "../model/output-contracts.ts";
import { boundRepairErrors } from "../model/repair-errors.ts";
import { emit, type RunContext } from "./run-context.ts";
import { measure, runAttempt, type AttemptOutcome, type AttemptPlan, type Rejection } from "./stage-attempt.ts";
import type { Result } from "../../shared/model/result.ts";

type Rejected = Extract<AttemptOutcome<string>, { kind: "rejected" }>;

/**
 * A candidate's second and last attempt after its answer was refused. A blank answer leaves nothing to
 * reformat, so the slot's own attempt runs again (tools and all, the prompt already forecast), as does a
 * plain-text answer cut at the output limit; any other refused JSON answer (a cut-off one too) gets the
 * workflow's repair: the same route with no tools, shown its own answer and
 * the exact validation errors. An answer over its contract is not repaired (its repair prompt would
 * exceed the forecast), and a workflow without a repair keeps the refusal.
 */
export async function retryRefusedCandidate(
  ctx: RunContext,
  first: AttemptPlan,
  rejected: Rejected,
  again: (attempt: number) => AttemptPlan,
  accept: (text: string) => Result<string, Rejection>,
): Promise<AttemptOutcome<string>> {
  const slot = first.slot as CandidateSlot;
  const contract = checkOutputContract("candidate", rejected.text);
  const errors = boundRepairErrors(rejected.rejection.problems);
  const repair = ctx.profile.candidateRepair;
  let plan: AttemptPlan;
  if (contract?.reason === "blank" || (rejected.rejection.cutOff === true && repair === undefined)) plan = again(2);
  else if (repair === undefined || contract?.reason === "too_large") return rejected;
  else
    plan = {
      stage: "candidate",
      slot,
      attempt: 2,
      budgetStage: candidateRepairStage(slot),
      route: first.route,
      tools: STAGE_TOOLS_NONE,
      systemPrompt: repair.systemPrompt,
      prompt: repair.prompt(rejected.text, errors),
      answerFormat: "json",
      signal: first.signal,
    };
  const measured = measure(ctx, plan);
  if (!measured.ok) return { kind: "failed", error: measured.error };
  emit(ctx, { type: "candidate_retry", slot, repair: plan.budgetStage !== first.budgetStage, errors: errors.total });
  const second = await runAttempt(ctx, plan, measured.value, undefined, accept);
  if (second.kind !== "rejected") return second;
  const final = boundRepairErrors(second.rejection.problems);
  const error = fusionError(
    second.rejection.code,
    `candidate ${slot}'s answer was still refused after its second attempt: ${final.shown[0] ?? "no detail"}`,
    {
      stage: "candidate",
      slot,
      attempt: 2,
      childCreated: true,
      details: { prefix: second.prefix, errors: final.shown, errors_total: final.total, errors_omitted: final.omitted },
    },
  );
  return { ...second, error };
}
