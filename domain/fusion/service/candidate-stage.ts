import { err, ok, type Result } from "../../shared/model/result.ts";
import type { MeasuredPrompt } from "../model/fusion-budget-gate.ts";
import { fusionError, type FusionError, type FusionErrorCode } from "../model/fusion-error.ts";
import { candidateLaunch } from "../model/candidate-launch.ts";
import { attemptPrefix, CANDIDATE_SLOTS, STAGE_TOOLS_NONE, type CandidateSlot } from "../model/fusion-workflow.ts";
import { checkOutputContract } from "../model/output-contracts.ts";
import type { PooledChild } from "./child-pool.ts";
import { emit, type RunContext } from "./run-context.ts";
import { measure, runAttempt, specFor, type AttemptPlan, type AttemptWatch, type Rejection } from "./stage-attempt.ts";
import { retryRefusedCandidate } from "./candidate-repair.ts";

export type CandidateAnswers = Readonly<Record<CandidateSlot, string>>;

/**
 * Three candidates in parallel. Every slot's exact prompt is measured before any child exists; the
 * first failure aborts the siblings. Once all three are working on their prompt (their own start-up is
 * over), the evaluator and merger children are started so their start-up overlaps the candidates' model
 * time without slowing the candidates' start-up down.
 */
export async function runCandidates(ctx: RunContext): Promise<Result<CandidateAnswers, FusionError>> {
  const siblings = linkedController(ctx.signal);
  const plans = CANDIDATE_SLOTS.map((slot) => candidatePlan(ctx, slot, siblings.signal, 1));
  const measured: MeasuredPrompt[] = [];
  for (const plan of plans) {
    const m = measure(ctx, plan);
    if (!m.ok) return m;
    measured.push(m.value);
  }
  const children: PooledChild[] = [];
  for (const plan of plans) {
    const launched = ctx.pool.launch(specFor(ctx, plan));
    if (!launched.ok) return err(launchFailure(ctx, plan, launched.error.code, launched.error.message));
    children.push(launched.value);
  }
  const working = new Set<CandidateSlot>();
  let completed = 0;
  let firstFailure: FusionError | undefined;
  const answers: Partial<Record<CandidateSlot, string>> = {};
  const preStarter = laterStagePreStarter(ctx);
  const watch = (slot: CandidateSlot): AttemptWatch => ({
    working: () => {
      working.add(slot);
      if (working.size === plans.length) preStarter.arm();
    },
    // Before the failure is recorded and the siblings are stopped: a sibling's start-up ending meanwhile
    // must not start two children the run will never use.
    childFailed: () => preStarter.settle(false),
  });
  await Promise.all(
    plans.map(async (plan, i) => {
      const slot = plan.slot as CandidateSlot;
      emit(ctx, { type: "candidate_started", slot });
      const accept = (text: string) => acceptCandidate(ctx, text);
      const first = await runAttempt(ctx, plan, at(measured, i), at(children, i), accept, watch(slot));
      const again = (attempt: number) => candidatePlan(ctx, slot, siblings.signal, attempt);
      const outcome = first.kind === "rejected" ? await retryRefusedCandidate(ctx, plan, first, again, accept) : first;
      if (outcome.kind === "accepted") {
        answers[slot] = outcome.value;
        emit(ctx, { type: "candidate_completed", slot, completed: ++completed, total: 3 });
        return;
      }
      if (firstFailure === undefined) {
        firstFailure = outcome.error;
        siblings.abort();
      }
    }),
  );
  siblings.dispose();
  preStarter.settle(firstFailure === undefined);
  if (firstFailure !== undefined) return err(firstFailure);
  const { 1: a, 2: b, 3: c } = answers;
  if (a === undefined || b === undefined || c === undefined)
    throw new Error("unreachable: a candidate neither answered nor failed");
  return ok({ 1: a, 2: b, 3: c });
}

/** A candidate attempt with its capability's tools, extensions and environment (audit log per attempt). */
function candidatePlan(ctx: RunContext, slot: CandidateSlot, signal: AbortSignal, attempt: number): AttemptPlan {
  const launch = candidateLaunch(
    ctx.capability,
    ctx.candidateExtensions,
    ctx.artifacts.dir,
    attemptPrefix("candidate", attempt, slot),
    ctx.candidateEnv,
    ctx.readScope,
    ctx.egressGuard,
  );
  return {
    stage: "candidate",
    slot,
    attempt,
    budgetStage: `candidate-${slot}`,
    route: ctx.routes.candidates[slot - 1] ?? unreachable(slot),
    tools: launch.tools,
    systemPrompt: ctx.profile.candidateSystemPrompt(ctx.capability),
    prompt: ctx.profile.prompts.candidate(ctx.inputJson),
    ...(Object.keys(launch.env).length === 0 ? {} : { env: launch.env }),
    ...(launch.extensions.length === 0 ? {} : { extensions: launch.extensions }),
    ...(launch.auditLog === undefined ? {} : { auditLog: launch.auditLog }),
    ...(ctx.profile.candidateRepair === undefined ? {} : { answerFormat: "json" as const }),
    signal,
  };
}

function acceptCandidate(ctx: RunContext, text: string): Result<string, Rejection> {
  const contract = checkOutputContract("candidate", text);
  const problems = contract === undefined ? [...ctx.profile.checkCandidateAnswer(text)] : [contract.message];
  if (problems.length === 0) return ok(text);
  return err({ code: "output_contract_violated", message: `candidate answer refused: ${problems[0]}`, problems });
}

/**
 * Starts the evaluator and merger once every candidate is working on its prompt, and at the latest when the
 * candidates are done. Started earlier, five start-ups compete for the CPU and the candidates' own take
 * longer (on 2 cores, 4.4–5.0 s instead of 2.9 s for three `pi` 0.73.1 children). Never once a candidate's
 * failure is known (a child still being reaped after failing is not yet known to have failed: children
 * started meanwhile are discarded), and never when pre-starting is off (each stage then launches its child
 * when its prompt exists).
 */
function laterStagePreStarter(ctx: RunContext): { arm(): void; settle(succeeded: boolean): void } {
  let done = false;
  const start = () => {
    if (done || !ctx.preStart) return;
    done = true;
    if (!ctx.signal.aborted) preStartLaterStages(ctx);
  };
  return {
    arm: start,
    settle: (succeeded) => {
      if (succeeded) start();
      done = true;
    },
  };
}

/** The evaluator and merger children start now; nothing reaches their stdin until their stage sends it. */
function preStartLaterStages(ctx: RunContext): void {
  const none = STAGE_TOOLS_NONE;
  ctx.pool.preStart(
    specFor(ctx, {
      stage: "evaluation",
      attempt: 1,
      route: ctx.routes.evaluator,
      tools: none,
      systemPrompt: ctx.profile.evaluatorSystemPrompt,
    }),
  );
  ctx.pool.preStart(
    specFor(ctx, {
      stage: "merge",
      attempt: 1,
      route: ctx.routes.merger,
      tools: none,
      systemPrompt: ctx.profile.mergerSystemPrompt,
    }),
  );
}

function launchFailure(ctx: RunContext, plan: AttemptPlan, code: FusionErrorCode, message: string): FusionError {
  return fusionError(code, message, {
    stage: "candidate",
    ...(plan.slot === undefined ? {} : { slot: plan.slot }),
    attempt: 1,
    childCreated: ctx.pool.childCreated,
  });
}

/** A controller that also aborts when `parent` does; `dispose` drops the link. */
export function linkedController(parent: AbortSignal): { signal: AbortSignal; abort(): void; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (parent.aborted) controller.abort();
  else parent.addEventListener("abort", onAbort, { once: true });
  return { signal: controller.signal, abort: onAbort, dispose: () => parent.removeEventListener("abort", onAbort) };
}

function at<T>(items: readonly T[], i: number): T {
  const item = items[i];
  if (item === undefined) throw new Error(`no item at ${i}`);
  return item;
}

function unreachable(slot: number): never {
  throw new Error(`no route for candidate slot ${slot}`);
}
