import type { Clock } from "../../../ports/clock.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { FusionChildRunner } from "../../../ports/fusion-child-runner.ts";
import type { FusionModelSource } from "../../../ports/fusion-model-source.ts";
import type { HostSession } from "../../../ports/host-session.ts";
import type { RandomSource } from "../../../ports/random-source.ts";
import { buildFusionInput } from "../../projection/model/fusion-input.ts";
import { FUSION_COMMAND_POLICY, FUSION_TOOL_POLICY } from "../../projection/model/projection-policy.ts";
import { ok, type Result, type TypedError } from "../../shared/model/result.ts";
import type { CandidateExtensionPaths } from "../model/candidate-launch.ts";
import { CLEAN_BRAINSTORM_PROFILE } from "../model/clean-brainstorm-profile.ts";
import { buildBrainstormInput } from "../model/clean-input.ts";
import { routesOf, type BudgetGateFactory } from "../model/pinned-routes.ts";
import { BRAINSTORM_PROFILE } from "../model/workflow-profile.ts";
import type { FusionLaunch } from "./fusion-launch.ts";
import { runFusion } from "./fusion-orchestrator.ts";
import type { FusionPorts, FusionRunOutcome, FusionRunRequest } from "./fusion-run-request.ts";

/** The host's child runner; `shutdown` stops every child it started and waits until their groups are gone. */
export type StoppableChildRunner = FusionChildRunner & { shutdown(): Promise<void> };

export interface FusionRunsDeps {
  readonly files: FileCommitter;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** The child runner, or why this host cannot start children (no usable Pi CLI): then every run is refused. */
  readonly runner: Result<StoppableChildRunner, TypedError>;
  readonly models: FusionModelSource;
  readonly budgetGate: BudgetGateFactory;
  readonly candidateExtensions: CandidateExtensionPaths;
  /** Where runs of calls without a session go: the host's directory and the name its run folders use. */
  readonly place: { readonly cwd: string; readonly sessionId: string };
  /** The host process's pid, recorded in every run directory's name. */
  readonly pid: number;
}

/** Everything a run needs that can be refused before any file or child exists. */
export interface FusionRunSetup {
  readonly ports: Omit<FusionPorts, "onProgress">;
  readonly cwd: string;
  readonly settings: Pick<FusionRunRequest, "routes" | "thinkingLevel" | "budget" | "location" | "candidateExtensions">;
}

/**
 * Fusion runs of one host: the children, the pinned models and the live runs, for every workflow.
 * A brainstorm in a session sees the session's projected conversation; one without a session (MCP) sees
 * its prompt alone (a clean task). Shutdown aborts live runs and waits until every child group is gone.
 */
export class FusionRuns {
  /** Runs in flight; a workflow adds its controller at launch and removes it when the run settles. */
  readonly live = new Set<AbortController>();

  constructor(private readonly deps: FusionRunsDeps) {}

  /** Pins the routes for a run in `session` (or, without one, in the host's place). */
  async prepare(session: HostSession | undefined): Promise<Result<FusionRunSetup, TypedError>> {
    const { runner } = this.deps;
    if (!runner.ok) return runner;
    const chosen = await this.deps.models.choose(session);
    if (!chosen.ok) return chosen;
    const { models, thinkingLevel } = chosen.value;
    const cwd = session?.cwd ?? this.deps.place.cwd;
    const sessionId = session?.sessionId ?? this.deps.place.sessionId;
    return ok({
      ports: { runner: runner.value, files: this.deps.files, clock: this.deps.clock, random: this.deps.random },
      cwd,
      settings: {
        routes: routesOf(models),
        thinkingLevel,
        budget: this.deps.budgetGate(models),
        location: { baseDir: cwd, sessionId, pid: this.deps.pid },
        candidateExtensions: this.deps.candidateExtensions,
      },
    });
  }

  /** A brainstorm, from the tool or the `/fusion` command; settles when the merged answer exists or the run failed. */
  readonly launch = async (launch: FusionLaunch): Promise<Result<FusionRunOutcome, TypedError>> => {
    const setup = await this.prepare(launch.session);
    if (!setup.ok) return setup;
    const input = this.inputOf(launch, setup.value.cwd);
    if (!input.ok) return input;
    const controller = new AbortController();
    const forward = () => controller.abort();
    launch.signal?.addEventListener("abort", forward, { once: true });
    this.live.add(controller);
    try {
      return await runFusion(
        { ...setup.value.ports, onProgress: launch.onProgress },
        {
          ...setup.value.settings,
          ...input.value,
          source: launch.source,
          capability: launch.capability,
          signal: controller.signal,
        },
      );
    } finally {
      this.live.delete(controller);
      launch.signal?.removeEventListener("abort", forward);
    }
  };

  async shutdown(): Promise<void> {
    for (const controller of this.live) controller.abort();
    const { runner } = this.deps;
    if (runner.ok) await runner.value.shutdown();
  }

  private inputOf(
    launch: FusionLaunch,
    cwd: string,
  ): Result<Pick<FusionRunRequest, "profile" | "canonicalInputJson" | "ledgerJson">, TypedError> {
    if (launch.session === undefined)
      return ok({
        profile: CLEAN_BRAINSTORM_PROFILE,
        canonicalInputJson: buildBrainstormInput(launch.prompt, cwd).json,
      });
    const snapshot = launch.session.conversation.capture();
    if (!snapshot.ok) return snapshot;
    const input = buildFusionInput({
      ...snapshot.value,
      policy: launch.source === "tool" ? FUSION_TOOL_POLICY : FUSION_COMMAND_POLICY,
      requestText: launch.prompt,
      ...(launch.toolCallId === undefined ? {} : { activeToolCallId: launch.toolCallId }),
    });
    if (!input.ok) return input;
    return ok({
      profile: BRAINSTORM_PROFILE,
      canonicalInputJson: input.value.inputJson,
      ledgerJson: input.value.ledgerJson,
    });
  }
}
