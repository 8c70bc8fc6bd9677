import { fusionRunDir } from "../../fusion/model/fusion-artifacts.ts";
import { fusionError, type FusionError } from "../../fusion/model/fusion-error.ts";
import type { FusionProgress } from "../../fusion/model/fusion-progress.ts";
import type { FusionResultDetails } from "../../fusion/model/fusion-result.ts";
import type { FusionSource } from "../../fusion/model/fusion-workflow.ts";
import type { Usage } from "../../shared/model/usage.ts";
import { VALIDATE_PROFILE } from "../model/validate-profile.ts";
import { runFusion } from "../../fusion/service/fusion-orchestrator.ts";
import type { FusionPorts, FusionRunOutcome, FusionRunRequest } from "../../fusion/service/fusion-run-request.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { buildValidateInput } from "../model/clean-task-input.ts";
import { scopeEntriesOutside } from "../model/scope-entries.ts";
import type { ValidateRequest } from "../model/validate-arguments.ts";
import { commitValidateResult, type CommittedResult, type ResultCommitError } from "./validate-result-store.ts";

/**
 * A validate run: the normalised request, the repository the reviewers read (the session's cwd), and the
 * orchestrator's own settings. The host's candidate extensions are needed: reviewers run with `inspect`, so
 * the tool-call audit is required.
 */
export type ValidateRunRequest = {
  readonly request: ValidateRequest;
  readonly cwd: string;
  /** Default `tool`. */
  readonly source?: FusionSource;
} & Pick<
  FusionRunRequest,
  "routes" | "thinkingLevel" | "budget" | "location" | "candidateEnv" | "candidateExtensions" | "signal"
>;

export interface ValidateCompleted {
  readonly runId: string;
  readonly artifactDir: string;
  /** The host-rendered validation report (`merged.md`). */
  readonly report: string;
  readonly usage: Usage;
  readonly details: FusionResultDetails;
  /** `result.json`; store `result.sha256` in the task's terminal record for `bg_result`. */
  readonly result: CommittedResult;
}

export type ValidateRunError = FusionError | ResultCommitError;

export interface ValidateLaunch {
  readonly runId: string;
  readonly artifactDir: string;
  readonly request: ValidateRequest;
  readonly inputSha256: string;
  /** What the preflight reported (budget warnings), for the task's output ahead of the reviewers' lines. */
  readonly preflightProgress: readonly FusionProgress[];
  /**
   * Starts the reviewers (call once); their progress goes to `onProgress`. Settles when the run has
   * committed its result or failed. Cancel through the request's signal.
   */
  execute(onProgress?: (progress: FusionProgress) => void): Promise<Result<ValidateCompleted, ValidateRunError>>;
  /** For a host that could not track the run: it ends after preflight with no child started. */
  abandon(): Promise<void>;
}

/**
 * Starts one `fusion_validate` run and resolves as soon as its preflight is durable (manifest,
 * canonical input and budget plan written, budget admitted), before any reviewer child exists. Every
 * refusal up to that point (capability, input, budget) resolves as an error with zero
 * children; later outcomes arrive through `completion`.
 */
export async function startValidateRun(
  ports: FusionPorts,
  request: ValidateRunRequest,
): Promise<Result<ValidateLaunch, FusionError>> {
  const outside = scopeOutsideRoot(ports, request);
  if (outside !== undefined) return err(outside);
  const input = buildValidateInput(request.request, request.cwd);
  const preflightProgress: FusionProgress[] = [];
  let sink: (progress: FusionProgress) => void = (progress) => preflightProgress.push(progress);
  let preflightDone: (runId: string) => void = () => undefined;
  const preflight = new Promise<string>((resolve) => (preflightDone = resolve));
  let proceed: (go: boolean) => void = () => undefined;
  const go = new Promise<boolean>((resolve) => (proceed = resolve));
  const { request: _normalized, cwd: _cwd, source, ...settings } = request;
  const run = runFusion(
    {
      ...ports,
      onProgress: (progress) => {
        sink(progress);
        ports.onProgress?.(progress);
      },
    },
    {
      ...settings,
      profile: VALIDATE_PROFILE,
      source: source ?? "tool",
      capability: "inspect",
      canonicalInputJson: input.json,
      beforeChildren: (runId) => {
        preflightDone(runId);
        return go;
      },
    },
  );
  // Either the preflight finished (the run waits for `execute`) or the run ended without reaching it (a refusal).
  const first = await Promise.race([preflight.then((runId) => ({ runId })), run.then((outcome) => ({ outcome }))]);
  if ("outcome" in first) return first.outcome.ok ? unreachable() : err(first.outcome.error);
  const { runId } = first;
  const artifactDir = fusionRunDir(request.location, runId);
  const completion = run.then((outcome) => complete(ports, outcome, { runId, artifactDir, inputSha256: input.sha256 }));
  return ok({
    runId,
    artifactDir,
    request: request.request,
    inputSha256: input.sha256,
    preflightProgress: [...preflightProgress],
    execute: (onProgress) => {
      sink = onProgress ?? (() => undefined);
      proceed(true);
      return completion;
    },
    abandon: async () => {
      proceed(false);
      await completion;
    },
  });
}

async function complete(
  ports: FusionPorts,
  outcome: Result<FusionRunOutcome, FusionError>,
  run: { runId: string; artifactDir: string; inputSha256: string },
): Promise<Result<ValidateCompleted, ValidateRunError>> {
  if (!outcome.ok) return outcome;
  const { text, usage, details } = outcome.value;
  const committed = await commitValidateResult(ports.files, {
    runDir: run.artifactDir,
    runId: run.runId,
    workflow: "validate",
    answerText: text,
    inputSha256: run.inputSha256,
    usage,
    usageUnavailable: details.usage_unavailable,
    committedAt: new Date(ports.clock.now()).toISOString(),
    narrativeIncomplete: details.narrative_incomplete,
  });
  if (!committed.ok) return committed;
  return ok({ runId: run.runId, artifactDir: run.artifactDir, report: text, usage, details, result: committed.value });
}

function unreachable(): never {
  throw new Error("the validate run completed without passing its preflight");
}

/** A scope the reviewers could not read is refused before anything exists, naming the entries. */
function scopeOutsideRoot(ports: FusionPorts, request: ValidateRunRequest): FusionError | undefined {
  const readScope = ports.runner.readScope(request.cwd);
  if (!readScope.ok) return fusionError(readScope.error.code, readScope.error.message, { stage: "preflight" });
  const outside = scopeEntriesOutside(request.request.scope, request.cwd, readScope.value.root);
  if (outside.length === 0) return undefined;
  return fusionError(
    "scope_outside_root",
    `scope names ${outside.map((e) => JSON.stringify(e)).join(", ")}, outside the project root ${readScope.value.root} the reviewers may read; name files and areas inside it`,
    { stage: "preflight" },
  );
}
