import { CLEAN_BRAINSTORM_PROFILE } from "../../domain/fusion/model/clean-brainstorm-profile.ts";
import { resolveExplicitFusionModels } from "../../domain/fusion/model/explicit-fusion-models.ts";
import { calibratedEstimator } from "../../domain/fusion/model/fusion-budget-plan.ts";
import type { ResolvedFusionModels } from "../../domain/fusion/model/fusion-model-resolution.ts";
import type { BrainstormLauncher } from "../../domain/fusion/service/brainstorm-tool-spec.ts";
import { runFusion, type FusionPorts } from "../../domain/fusion/service/index.ts";
import { err, ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";
import { buildBrainstormInput } from "../../domain/fusion/model/clean-input.ts";
import type { ValidateRequest } from "../../domain/validate/model/validate-arguments.ts";
import type { ResultReader } from "../../domain/results/service/bg-result-spec.ts";
import { readTaskResult } from "../../domain/results/service/read-task-result.ts";
import { startValidateTask, type ValidateTaskReceipt } from "../../domain/validate/service/validate-task.ts";
import type { ValidateLauncher } from "../../domain/validate/service/validate-tool-spec.ts";
import type { PiCliLocation, PiCliNotFound } from "../../adapters/node/pi-cli-locator.ts";
import type { RuntimeAccess } from "../../domain/tasks/service/task-tool-specs.ts";
import type { Clock } from "../../ports/clock.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import type { ProcessLauncher } from "../../ports/process-launcher.ts";
import type { RandomSource } from "../../ports/random-source.ts";
import { FusionModelsStore } from "../../adapters/node/fusion-models-store.ts";
import { PiChildRunner } from "../../adapters/node/pi-child-runner.ts";
import { piAgentDir } from "../../adapters/mcp/pi-agent-dir.ts";
import {
  anthropicSanitizerExtensionPath,
  fusionChildExtensionPath,
} from "../../adapters/pi/child/child-extension-paths.ts";
import type { BudgetGateFactory } from "../fusion-runs.ts";
import { piInstallHint } from "../pi-install-hint.ts";

/** What Fusion on the MCP host works with: the server's task runtime, clock, directory and Pi CLI. */
export interface McpFusionContext {
  readonly runtime: RuntimeAccess;
  readonly clock: Clock;
  readonly files: FileCommitter;
  readonly random: RandomSource;
  readonly launcher: ProcessLauncher;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly pid: number;
  readonly piCli: Result<PiCliLocation, PiCliNotFound>;
}

const DELIVERY = "notification_and_wait" as const;

/**
 * The modules that load Pi's SDK (about 2 s on a small machine), imported at the first Fusion call so
 * that the server answers `initialize` and lists its tools without waiting for them.
 */
async function loadPiSide() {
  const [runs, catalog] = await Promise.all([
    import("../fusion-runs.ts"),
    import("../../adapters/mcp/pi-agent-catalog.ts"),
  ]);
  return { ...runs, ...catalog };
}
type PiSide = Awaited<ReturnType<typeof loadPiSide>>;

/** Run directories sit next to the server's task directory: `.pi/fusion/mcp-<pid>/<run id>`. */
const SESSION_ID = "mcp";

/**
 * Fusion for the MCP host: fusion_validate (a background task awaited with bg_wait), fusion_brainstorm
 * on a clean-task input (the prompt alone: there is no conversation to project) and bg_result. Models
 * come from `fusion-models.json` in Pi's agent directory and must be explicit (no session, so no
 * `$current`); their windows from Pi's model registry; thinking is `off` unless Pi's settings set one.
 * Children are real `pi` processes.
 */
export class McpFusion {
  private readonly live = new Set<AbortController>();
  private readonly agentDir: string;
  private readonly runner: PiChildRunner | undefined;
  private piSide: Promise<PiSide> | undefined;

  constructor(
    private readonly context: McpFusionContext,
    private readonly budgetGate?: BudgetGateFactory,
  ) {
    this.agentDir = piAgentDir(context.env);
    this.runner = context.piCli.ok ? this.runnerFor(context.piCli.value) : undefined;
  }

  /** bg_result: a Fusion run's verified result (this host has no delegates). */
  readonly results: ResultReader = (query) =>
    readTaskResult({ files: this.context.files, runtime: this.context.runtime() }, query);

  /** Aborts live brainstorms (validate runs stop with their tasks) and waits until every child group is gone. */
  async shutdown(): Promise<void> {
    for (const controller of this.live) controller.abort();
    await this.runner?.shutdown();
  }

  readonly validate: ValidateLauncher = async (
    args: ValidateRequest,
  ): Promise<Result<ValidateTaskReceipt, TypedError>> => {
    const ready = await this.prepare();
    if (!ready.ok) return ready;
    const { ports, models, thinkingLevel, pi } = ready.value;
    return startValidateTask(
      { ports, runtime: this.context.runtime(), pid: this.context.pid, live: this.live, delivery: DELIVERY },
      {
        request: args,
        cwd: this.context.cwd,
        routes: pi.routesOf(models),
        thinkingLevel,
        budget: this.gateFor(pi, models),
        location: this.location(),
        candidateExtensions: pi.candidateExtensions(),
      },
    );
  };

  readonly brainstorm: BrainstormLauncher = async (request, { onProgress, signal }) => {
    const ready = await this.prepare();
    if (!ready.ok) return ready;
    const { ports, models, thinkingLevel, pi } = ready.value;
    const controller = new AbortController();
    const forward = () => controller.abort();
    signal?.addEventListener("abort", forward, { once: true });
    this.live.add(controller);
    try {
      return await runFusion(
        { ...ports, onProgress },
        {
          profile: CLEAN_BRAINSTORM_PROFILE,
          source: "tool",
          capability: request.capability,
          canonicalInputJson: buildBrainstormInput(request.prompt, this.context.cwd).json,
          routes: pi.routesOf(models),
          thinkingLevel,
          budget: this.gateFor(pi, models),
          location: this.location(),
          candidateExtensions: pi.candidateExtensions(),
          signal: controller.signal,
        },
      );
    } finally {
      this.live.delete(controller);
      signal?.removeEventListener("abort", forward);
    }
  };

  /** Everything a run needs that can be refused before any file or child exists: the CLI, the models. */
  private async prepare(): Promise<
    Result<
      { ports: Omit<FusionPorts, "onProgress">; models: ResolvedFusionModels; thinkingLevel: string; pi: PiSide },
      TypedError
    >
  > {
    const piCli = this.context.piCli;
    if (!piCli.ok || this.runner === undefined) {
      const reason = piCli.ok ? "the Pi CLI is unusable" : piCli.error.message;
      return err({ code: "pi_cli_not_found", message: `${piInstallHint(reason)} No Fusion child was started.` });
    }
    const pi = await (this.piSide ??= loadPiSide());
    const store = new FusionModelsStore({ agentDir: this.agentDir, files: this.context.files });
    const loaded = await store.load();
    if (!loaded.ok) return loaded;
    const available = await pi.availablePiModels(this.agentDir);
    if (!available.ok) return available;
    const models = resolveExplicitFusionModels(loaded.value, store.path, available.value);
    if (!models.ok) return models;
    const ports = {
      runner: this.runner,
      files: this.context.files,
      clock: this.context.clock,
      random: this.context.random,
    };
    return ok({
      ports,
      models: models.value,
      thinkingLevel: pi.configuredThinkingLevel(this.context.cwd, this.agentDir),
      pi,
    });
  }

  private gateFor(pi: PiSide, models: ResolvedFusionModels) {
    return (this.budgetGate ?? pi.budgetGateFor(calibratedEstimator, "input-token-calibration.v1"))(models);
  }

  private runnerFor(cli: PiCliLocation): PiChildRunner {
    return new PiChildRunner({
      childExtensionPath: fusionChildExtensionPath(),
      anthropicSanitizerPath: anthropicSanitizerExtensionPath(),
      files: this.context.files,
      clock: this.context.clock,
      baseEnv: this.context.env,
      cli,
      launcher: this.context.launcher,
    });
  }

  private location() {
    return { baseDir: this.context.cwd, sessionId: SESSION_ID, pid: this.context.pid };
  }
}
