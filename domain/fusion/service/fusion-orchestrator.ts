import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { buildSecretWindows, serialiseSecretWindows } from "../../web/model/secret-windows.ts";
import type { EgressGuardFile } from "../model/candidate-launch.ts";
import { anonymise } from "../model/anonymisation.ts";
import { checkCandidateWiring } from "../model/candidate-launch.ts";
import type { CheckedInput } from "../model/canonical-input-check.ts";
import { ARTIFACT, fusionRunDir } from "../model/fusion-artifacts.ts";
import type { FusionBudgetSummary } from "../model/fusion-budget-gate.ts";
import { fusionError, type FusionError, type FusionErrorStage } from "../model/fusion-error.ts";
import { newManifest, recordAnonymisation, type ManifestRoutes } from "../model/fusion-manifest.ts";
import { modelsOf, RESULT_SCHEMA, type FusionResultDetails } from "../model/fusion-result.ts";
import type { FusionState } from "../model/fusion-state.ts";
import {
  candidateTools,
  runIdFor,
  STAGE_TOOLS_NONE,
  withThinking,
  type CandidateSlot,
} from "../model/fusion-workflow.ts";
import { stagePromptSkeletons } from "../model/stage-skeletons.ts";
import { blindCandidatesDocument } from "../model/stage-inputs.ts";
import { resolveCapability } from "../model/workflow-profile.ts";
import { linkedController, runCandidates } from "./candidate-stage.ts";
import { ChildPool } from "./child-pool.ts";
import { runEvaluation } from "./evaluation-stage.ts";
import type { FusionPorts, FusionRunOutcome, FusionRunRequest } from "./fusion-run-request.ts";
import { ManifestStore } from "./manifest-store.ts";
import { runMerge } from "./merge-stage.ts";
import { RunArtifacts } from "./run-artifacts.ts";
import { emit, isoNow, type RunContext } from "./run-context.ts";
import { terminate } from "./run-termination.ts";

const NEVER_ABORTED = new AbortController().signal;

/**
 * Runs one Fusion workflow: preflight, three blind candidates, evaluation (one repair at most),
 * merge. Every refusal before the first child launches zero children; every failure after it stops
 * and waits for every child, then leaves a terminal manifest and `error.json`.
 */
export async function runFusion(
  ports: FusionPorts,
  request: FusionRunRequest,
): Promise<Result<FusionRunOutcome, FusionError>> {
  const capability = resolveCapability(request.profile, request.capability);
  if (!capability.ok) return err(fusionError(capability.error.code, capability.error.message, { stage: "preflight" }));
  const callerSignal = request.signal ?? NEVER_ABORTED;
  if (callerSignal.aborted)
    return err(
      fusionError("child_cancelled", "the run was cancelled before it started; nothing was written", {
        stage: "preflight",
      }),
    );
  const input = request.profile.checkInput(request.canonicalInputJson, request.ledgerJson);
  if (!input.ok) return err(fusionError(input.error.code, input.error.message, { stage: "preflight" }));
  const wiring = checkCandidateWiring(capability.value, request.candidateExtensions, request.candidateEnv);
  if (!wiring.ok) return err(fusionError(wiring.error.code, wiring.error.message, { stage: "preflight" }));
  const readScope = candidateTools(capability.value).length === 0 ? undefined : ports.runner.readScope(input.value.cwd);
  if (readScope !== undefined && !readScope.ok)
    return err(fusionError(readScope.error.code, readScope.error.message, { stage: "preflight" }));

  const runId = runIdFor(request.profile.workflow, ports.random.hex(16));
  const artifacts = new RunArtifacts(ports.files, fusionRunDir(request.location, runId));
  const created = await artifacts.create();
  if (!created.ok) return err({ ...created.error, runId, artifactDir: artifacts.dir });
  const egress = capability.value === "research" ? await writeEgressGuard(ports, artifacts) : undefined;
  if (egress !== undefined && !egress.ok) return err({ ...egress.error, runId, artifactDir: artifacts.dir });

  const routes = routesOf(request);
  const run = linkedController(callerSignal);
  const { sha256, bytes, ledgerSha256 } = input.value;
  const manifest = new ManifestStore(
    artifacts,
    newManifest({
      run_id: runId,
      workflow: request.profile.workflow,
      source: request.source,
      capability: capability.value,
      artifact_dir: artifacts.dir,
      created_at: new Date(ports.clock.now()).toISOString(),
      input: {
        schema_version: input.value.schemaVersion,
        sha256,
        bytes,
        ...(ledgerSha256 === undefined ? {} : { ledger_sha256: ledgerSha256 }),
      },
      routes,
      tool_policy: {
        candidate_tools: candidateTools(capability.value),
        evaluation_tools: STAGE_TOOLS_NONE,
        merge_tools: STAGE_TOOLS_NONE,
      },
    }),
  );
  const ctx: RunContext = {
    ports,
    profile: request.profile,
    capability: capability.value,
    runId,
    routes,
    inputJson: request.canonicalInputJson,
    cwd: input.value.cwd,
    ...(request.candidateEnv === undefined ? {} : { candidateEnv: request.candidateEnv }),
    ...(request.candidateExtensions === undefined ? {} : { candidateExtensions: request.candidateExtensions }),
    ...(readScope === undefined ? {} : { readScope: readScope.value }),
    ...(egress === undefined ? {} : { egressGuard: egress.value }),
    budget: request.budget,
    preStart: request.preStartLaterStages ?? true,
    artifacts,
    manifest,
    pool: new ChildPool(ports.runner),
    signal: run.signal,
  };
  try {
    const outcome = await execute(ctx, request, input.value);
    if (outcome.ok) return outcome;
    return err(await terminate(ctx, outcome.error, run.abort, callerSignal.aborted));
  } finally {
    // Also reached when a bug throws: no child may outlive the run either way.
    run.abort();
    await ctx.pool.close();
    run.dispose();
  }
}

async function execute(
  ctx: RunContext,
  request: FusionRunRequest,
  input: CheckedInput,
): Promise<Result<FusionRunOutcome, FusionError>> {
  const opened = await openRun(ctx, request);
  if (!opened.ok) return opened;
  if (request.beforeChildren !== undefined && !(await request.beforeChildren(ctx.runId)))
    return err(
      fusionError("child_cancelled", "the host did not go on after preflight; no child was started", {
        stage: "preflight",
      }),
    );
  const answers = await stage(ctx, "candidates_running", "candidate", () => runCandidates(ctx));
  if (!answers.ok) return answers;
  const advanced = await advance(ctx, "candidates_complete", "candidate");
  if (!advanced.ok) return advanced;

  const anonymised = anonymise(answers.value, ctx.ports.random.shuffle<CandidateSlot>([1, 2, 3]));
  const findings = ctx.profile.hostFindings(anonymised.candidates);
  if (!findings.ok)
    return err(fusionError(findings.error.code, findings.error.message, { stage: "evaluation", childCreated: true }));
  const blind = blindCandidatesDocument(anonymised.candidates, findings.value);
  const blindWritten = await ctx.artifacts.writeJson(ARTIFACT.blindCandidates, blind, "evaluation");
  if (!blindWritten.ok) return blindWritten;
  const mapped = await ctx.manifest.update((m) => recordAnonymisation(m, anonymised.map, isoNow(ctx)), "evaluation");
  if (!mapped.ok) return mapped;

  const evaluation = await stage(ctx, "evaluating", "evaluation", () => runEvaluation(ctx, blind));
  if (!evaluation.ok) return evaluation;
  const evaluationWritten = await ctx.artifacts.writeJson(ARTIFACT.evaluation, evaluation.value, "evaluation");
  if (!evaluationWritten.ok) return evaluationWritten;
  const evaluated = await advance(ctx, "evaluation_complete", "evaluation");
  if (!evaluated.ok) return evaluated;

  const merged = await stage(ctx, "merging", "merge", () => runMerge(ctx, blind, evaluation.value));
  if (!merged.ok) return merged;
  const mergedWritten = await ctx.artifacts.writeText(ARTIFACT.merged, merged.value.text, "merge");
  if (!mergedWritten.ok) return mergedWritten;
  const completed = await advance(ctx, "completed", "merge");
  if (!completed.ok) return completed;
  emit(ctx, { type: "completed" });
  const usage = ctx.manifest.current.usage;
  const details = detailsOf(ctx, request, input, opened.value, merged.value.narrativeIncomplete);
  return ok({ text: merged.value.text, usage, details });
}

/** Manifest, canonical input, ledger and budget plan durable; the budget may refuse before any child. */
async function openRun(ctx: RunContext, request: FusionRunRequest): Promise<Result<FusionBudgetSummary, FusionError>> {
  const first = await ctx.manifest.update((m) => m, "preflight");
  if (!first.ok) return first;
  const inputWritten = await ctx.artifacts.writeText(ARTIFACT.canonicalInput, request.canonicalInputJson, "preflight");
  if (!inputWritten.ok) return inputWritten;
  if (request.ledgerJson !== undefined) {
    const ledgerWritten = await ctx.artifacts.writeText(ARTIFACT.ledger, request.ledgerJson, "preflight");
    if (!ledgerWritten.ok) return ledgerWritten;
  }
  const render = (json: string) => stagePromptSkeletons(ctx.profile, ctx.capability, ctx.routes, json);
  const plan = ctx.budget.preflight(ctx.inputJson, render);
  const planWritten = await ctx.artifacts.writeText(ARTIFACT.budgetPlan, plan.planJson, "preflight");
  if (!planWritten.ok) return planWritten;
  for (const warning of plan.warnings) {
    emit(ctx, {
      type: "budget_warning",
      code: warning.code,
      message: warning.message,
      ...(warning.stage === undefined ? {} : { stage: warning.stage }),
    });
  }
  if (plan.blocker !== undefined) {
    const { code, message, details, stage } = plan.blocker;
    const facts = { ...details, ...(stage === undefined ? {} : { budget_stage: stage }) };
    return err(fusionError(code, message, { stage: "preflight", details: facts }));
  }
  return ok(plan.summary);
}

/** Enters a stage's running state (unless the run was cancelled), then runs it. */
async function stage<T>(
  ctx: RunContext,
  state: FusionState,
  where: FusionErrorStage,
  body: () => Promise<Result<T, FusionError>>,
): Promise<Result<T, FusionError>> {
  const entered = await advance(ctx, state, where);
  if (!entered.ok) return entered;
  return body();
}

async function advance(ctx: RunContext, to: FusionState, where: FusionErrorStage): Promise<Result<void, FusionError>> {
  if (ctx.signal.aborted && to !== "completed") {
    return err(
      fusionError("child_cancelled", `the run was cancelled before ${to.replace(/_/g, " ")}`, {
        stage: where,
        childCreated: ctx.pool.childCreated,
      }),
    );
  }
  const moved = await ctx.manifest.transition(to, isoNow(ctx), where);
  if (moved.ok) emit(ctx, { type: "state", state: to });
  return moved;
}

function routesOf(request: FusionRunRequest): ManifestRoutes {
  const t = (ref: { provider: string; model: string }) => withThinking(ref, request.thinkingLevel);
  const [a, b, c] = request.routes.candidates;
  return { candidates: [t(a), t(b), t(c)], evaluator: t(request.routes.evaluator), merger: t(request.routes.merger) };
}

function detailsOf(
  ctx: RunContext,
  request: FusionRunRequest,
  input: CheckedInput,
  budget: FusionBudgetSummary,
  narrativeIncomplete: boolean,
): FusionResultDetails {
  const manifest = ctx.manifest.current;
  return {
    schema_version: RESULT_SCHEMA,
    run_id: ctx.runId,
    workflow: ctx.profile.workflow,
    source: request.source,
    status: "completed",
    capability: ctx.capability,
    context: input.context,
    tool_policy: manifest.tool_policy,
    artifact_dir: ctx.artifacts.dir,
    models: modelsOf(ctx.routes, request.thinkingLevel),
    evaluator_attempts: manifest.evaluator_attempts,
    usage: manifest.usage,
    usage_unavailable: manifest.usage_unavailable,
    budget,
    narrative_incomplete: narrativeIncomplete,
  };
}

/**
 * The egress guard of a research run: salted hashes of every 12-byte window of the credentials the parent
 * holds, in the run directory (outside every child's read scope), named to the children with its digest.
 */
async function writeEgressGuard(
  ports: FusionPorts,
  artifacts: RunArtifacts,
): Promise<Result<EgressGuardFile, FusionError>> {
  const salt = Uint8Array.from(ports.random.hex(32).match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));
  const text = serialiseSecretWindows(buildSecretWindows(ports.runner.guardedSecrets(), salt).windows);
  const written = await artifacts.writeText(ARTIFACT.secretWindows, text, "preflight");
  if (!written.ok) return written;
  return ok({ path: `${artifacts.dir}/${ARTIFACT.secretWindows}`, sha256: sha256Hex(text) });
}
