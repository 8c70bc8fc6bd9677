import { getAgentDir } from "@mariozechner/pi-coding-agent";
import type { Clock } from "../ports/clock.ts";
import type { FileCommitter } from "../ports/file-committer.ts";
import type { HostSession } from "../ports/host-session.ts";
import type { ProcessLauncher } from "../ports/process-launcher.ts";
import type { RandomSource } from "../ports/random-source.ts";
import { fusionBudgetGate, type TokenEstimator } from "../domain/fusion/model/fusion-budget-plan.ts";
import {
  resolveFusionModels,
  type ResolvedFusionModels,
  type ResolvedFusionRoute,
} from "../domain/fusion/model/fusion-model-resolution.ts";
import {
  BRAINSTORM_PROFILE,
  runFusion,
  type FusionBudgetGate,
  type FusionModelRoutes,
  type FusionRunOutcome,
} from "../domain/fusion/service/index.ts";
import { buildFusionInput } from "../domain/projection/model/fusion-input.ts";
import { FUSION_COMMAND_POLICY, FUSION_TOOL_POLICY } from "../domain/projection/model/projection-policy.ts";
import { err, type Result, type TypedError } from "../domain/shared/model/result.ts";
import type { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import type { ValidateRequest } from "../domain/validate/model/validate-arguments.ts";
import { startValidateTask, type ValidateTaskReceipt } from "../domain/validate/service/validate-task.ts";
import { FusionModelsStore } from "../adapters/node/fusion-models-store.ts";
import { PiChildRunner } from "../adapters/node/pi-child-runner.ts";
import {
  anthropicSanitizerExtensionPath,
  fusionChildExtensionPath,
} from "../adapters/pi/child/child-extension-paths.ts";
import { fusionWebFetchExtensionPath, toolAuditExtensionPath } from "../adapters/pi/child/research-extension-paths.ts";
import type { FusionLaunch } from "../domain/fusion/service/fusion-launch.ts";

/** Builds the budget gate for the resolved routes (the budget engine adapted to the orchestrator). */
export type BudgetGateFactory = (models: ResolvedFusionModels) => FusionBudgetGate;

/** The budget gate over the resolved routes' context windows, with the given token estimator. */
export function budgetGateFor(estimate: TokenEstimator, calibrationVersion: string): BudgetGateFactory {
  return (models) => {
    const all = [...models.candidates, models.evaluator, models.merger];
    return fusionBudgetGate(
      (route) => {
        const found = all.find((r) => r.provider === route.provider && r.model === route.model);
        return found && { provider: found.provider, model: found.model, contextWindow: found.contextWindow };
      },
      estimate,
      calibrationVersion,
    );
  };
}

const toRef = (route: ResolvedFusionRoute) => ({ provider: route.provider, model: route.model });

/** The package's candidate child extensions; the orchestrator picks them by capability. */
export const candidateExtensions = () => ({
  webFetch: fusionWebFetchExtensionPath(),
  toolAudit: toolAuditExtensionPath(),
});

export function routesOf(models: ResolvedFusionModels): FusionModelRoutes {
  const [a, b, c] = models.candidates;
  return {
    candidates: [toRef(a), toRef(b), toRef(c)],
    evaluator: toRef(models.evaluator),
    merger: toRef(models.merger),
  };
}

/**
 * Runs Fusion workflows over host sessions (Pi): reads the conversation and the model configuration,
 * pins the routes, and hands everything to the orchestrator. Shutdown aborts live runs and waits
 * until every child process group is gone.
 */
export class FusionRuns {
  private readonly live = new Set<AbortController>();
  private readonly files: FileCommitter;
  private readonly clock: Clock;
  private readonly random: RandomSource;
  private readonly runner: PiChildRunner;
  private readonly budgetGate: BudgetGateFactory;

  constructor(deps: {
    readonly files: FileCommitter;
    readonly clock: Clock;
    readonly random: RandomSource;
    readonly launcher: ProcessLauncher;
    readonly budgetGate: BudgetGateFactory;
  }) {
    ({ files: this.files, clock: this.clock, random: this.random, budgetGate: this.budgetGate } = deps);
    this.runner = new PiChildRunner({
      childExtensionPath: fusionChildExtensionPath(),
      anthropicSanitizerPath: anthropicSanitizerExtensionPath(),
      files: deps.files,
      clock: deps.clock,
      launcher: deps.launcher,
    });
  }

  readonly launch = async (launch: FusionLaunch): Promise<Result<FusionRunOutcome, TypedError>> => {
    const controller = new AbortController();
    const forward = () => controller.abort();
    launch.signal?.addEventListener("abort", forward, { once: true });
    this.live.add(controller);
    try {
      return await this.run(launch, controller.signal);
    } finally {
      this.live.delete(controller);
      launch.signal?.removeEventListener("abort", forward);
    }
  };

  async shutdown(): Promise<void> {
    for (const controller of this.live) controller.abort();
    await this.runner.shutdown();
  }

  private async run(launch: FusionLaunch, signal: AbortSignal): Promise<Result<FusionRunOutcome, TypedError>> {
    const { session } = launch;
    const snapshot = session.conversation.capture();
    if (!snapshot.ok) return snapshot;
    const input = buildFusionInput({
      ...snapshot.value,
      policy: launch.source === "tool" ? FUSION_TOOL_POLICY : FUSION_COMMAND_POLICY,
      requestText: launch.prompt,
      ...(launch.toolCallId === undefined ? {} : { activeToolCallId: launch.toolCallId }),
    });
    if (!input.ok) return input;
    const models = await this.models(session);
    if (!models.ok) return models;
    return runFusion(
      { ...this.ports(), onProgress: launch.onProgress },
      {
        profile: BRAINSTORM_PROFILE,
        source: launch.source,
        capability: launch.capability,
        canonicalInputJson: input.value.inputJson,
        ledgerJson: input.value.ledgerJson,
        routes: routesOf(models.value),
        thinkingLevel: session.thinkingLevel(),
        budget: this.budgetGate(models.value),
        location: locationOf(session),
        candidateExtensions: candidateExtensions(),
        signal,
      },
    );
  }

  /**
   * Starts `fusion_validate` as a background task: preflight is durable and the task tracked before
   * this returns; the run goes on in this process and its end notifies (and wakes) the agent.
   */
  async validate(
    request: ValidateRequest,
    session: HostSession,
    runtime: TaskRuntime,
  ): Promise<Result<ValidateTaskReceipt, TypedError>> {
    const models = await this.models(session);
    if (!models.ok) return models;
    return startValidateTask(
      { ports: this.ports(), runtime, pid: process.pid, live: this.live, delivery: "agent_turn" },
      {
        request,
        cwd: session.cwd,
        routes: routesOf(models.value),
        thinkingLevel: session.thinkingLevel(),
        budget: this.budgetGate(models.value),
        location: locationOf(session),
        candidateExtensions: candidateExtensions(),
      },
    );
  }

  private ports() {
    return { runner: this.runner, files: this.files, clock: this.clock, random: this.random };
  }

  /** Pins the five slots to available routes, or says which slot cannot be served. */
  private async models(session: HostSession): Promise<Result<ResolvedFusionModels, TypedError>> {
    const loaded = await new FusionModelsStore({ agentDir: getAgentDir(), files: this.files }).load();
    if (!loaded.ok) return loaded;
    const models = resolveFusionModels(loaded.value.config, session.availableModels(), session.currentModel());
    return models.ok
      ? models
      : err({
          ...models.error,
          message: `${models.error.message} No Fusion child was started. Fix it with /fusion-models.`,
        });
  }
}

const locationOf = (session: HostSession) => ({ baseDir: session.cwd, sessionId: session.sessionId, pid: process.pid });
