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
 * A candidate's recovery after its answer was refused, each kind at most once: a slot has at most three
 * attempts. An answer that is blank or cut at the output limit is no answer to reformat, so the slot's
 * own attempt runs again (tools and all, the prompt already forecast). Any other refused JSON answer,
 * or a cut-off one once the slot was asked again, gets the workflow's repair: the same route with no
 * tools, shown its own answer and the exact validation errors. An answer over its contract is not
 * repaired (its repair prompt would exceed the forecast), and a workflow without a repair only asks again.
 */
export async function retryRefusedCandidate(
  ctx: RunContext,
  first: AttemptPlan,
  rejected: Rejected,
  again: (attempt: number) => AttemptPlan,
  accept: (text: string) => Result<string, Rejection>,
): Promise<AttemptOutcome<string>> {
  const slot = first.slot as CandidateSlot;
  let askedAgain = false;
  let repaired = false;
  let last = rejected;
  for (let attempt = 2; ; attempt++) {
    const contract = checkOutputContract("candidate", last.text);
    const blank = contract?.reason === "blank";
    const repair = ctx.profile.candidateRepair;
    let plan: AttemptPlan;
    if (!askedAgain && (blank || last.rejection.cutOff === true)) {
      askedAgain = true;
      plan = again(attempt);
    } else if (!repaired && !blank && repair !== undefined && contract?.reason !== "too_large") {
      repaired = true;
      const errors = boundRepairErrors(last.rejection.problems);
      plan = {
        stage: "candidate",
        slot,
        attempt,
        budgetStage: candidateRepairStage(slot),
        route: first.route,
        tools: STAGE_TOOLS_NONE,
        systemPrompt: repair.systemPrompt,
        prompt: repair.prompt(last.text, errors),
        answerFormat: "json",
        signal: first.signal,
      };
    } else return attempt === 2 ? last : stillRefused(last, slot, attempt - 1);
    const measured = measure(ctx, plan);
    if (!measured.ok) return { kind: "failed", error: measured.error };
    const errors = last.rejection.problems.length;
    emit(ctx, { type: "candidate_retry", slot, repair: plan.budgetStage !== first.budgetStage, errors });
    const next = await runAttempt(ctx, plan, measured.value, undefined, accept);
    if (next.kind !== "rejected") return next;
    last = next;
  }
}

function stillRefused(last: Rejected, slot: CandidateSlot, attempt: number): Rejected {
  const final = boundRepairErrors(last.rejection.problems);
  const error = fusionError(
    last.rejection.code,
    `candidate ${slot}'s answer was still refused after ${attempt} attempts: ${final.shown[0] ?? "no detail"}`,
    {
      stage: "candidate",
      slot,
      attempt,
      childCreated: true,
      details: { prefix: last.prefix, errors: final.shown, errors_total: final.total, errors_omitted: final.omitted },
    },
  );
  return { ...last, error };
}
