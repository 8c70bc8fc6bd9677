import type { Clock } from "../../../ports/clock.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { FusionChildRunner } from "../../../ports/fusion-child-runner.ts";
import type { RandomSource } from "../../../ports/random-source.ts";
import type { FusionEvaluation } from "../../fusion/model/evaluation-schema.ts";
import type { FusionProgress } from "../../fusion/model/fusion-progress.ts";
import type { MergeInputDocument } from "../../fusion/model/stage-inputs.ts";
import type { Usage } from "../../shared/model/usage.ts";
import {
  CANARY_ROUTES,
  recordingBudgetGate,
  TEST_CANDIDATE_EXTENSIONS,
  usageOf,
  type RecordingBudgetGate,
} from "../../fusion/service/fusion-fixtures.test-support.ts";
import type { FusionPorts } from "../../fusion/service/fusion-run-request.ts";
import {
  evaluation,
  hostFindingsIn,
  includeAll,
  section,
  validArguments,
  type Decide,
} from "../model/validate-fixtures.test-support.ts";
import type { FusionError } from "../../fusion/model/fusion-error.ts";
import type { Result } from "../../shared/model/result.ts";
import type { InvalidArguments } from "../../shared/model/tool-arguments.ts";
import { normalizeValidateArguments } from "../model/validate-arguments.ts";
import { startValidateRun, type ValidateLaunch, type ValidateRunRequest } from "./validate-run.ts";

export const BASE_DIR = "/work/project";
export const LOCATION = { baseDir: BASE_DIR, sessionId: "sess-1", pid: 4242 } as const;

/** A stage script in the fake runner's shape (answer computed from the prompt when it is a function). */
export interface StageScript {
  readonly answer: string | ((prompt: string) => string);
  readonly usage?: Usage;
}

/** An evaluator script that reads the host findings from its own prompt. */
export function evaluator(decide: Decide, seed = 4): StageScript {
  return {
    answer: (prompt) => JSON.stringify(evaluation(hostFindingsIn(prompt), decide(hostFindingsIn(prompt)))),
    usage: usageOf(seed),
  };
}

/** A merger that cites exactly the included ids it was given (or what `cite` picks). */
export function merger(cite?: (included: string[], excluded: string[]) => string[]): StageScript {
  return {
    answer: (prompt) => {
      const merge = section<MergeInputDocument>(prompt, "MERGE INPUT");
      const decisions = (merge.evaluation as FusionEvaluation).validation_accounting?.decisions ?? [];
      const included = decisions.filter((d) => d.disposition === "include").map((d) => d.source_id);
      const excluded = decisions.filter((d) => d.disposition === "exclude").map((d) => d.source_id);
      const ids = cite === undefined ? included : cite(included, excluded);
      return `# Review\n\n${ids.map((id) => `- A defect stands [${id}].`).join("\n") || "No defects stand."}\n`;
    },
    usage: usageOf(5),
  };
}

export function scripts(
  reviews: readonly [string, string, string],
  evaluate: StageScript = evaluator(includeAll()),
  merge: StageScript = merger(),
): Record<string, StageScript> {
  return {
    "candidate-1.attempt-1": { answer: reviews[0], usage: usageOf(1) },
    "candidate-2.attempt-1": { answer: reviews[1], usage: usageOf(2) },
    "candidate-3.attempt-1": { answer: reviews[2], usage: usageOf(3) },
    "evaluation.attempt-1": evaluate,
    "merge.attempt-1": merge,
  };
}

/** The fakes a test builds and hands in (test-support files may not import adapters themselves). */
export interface HarnessDeps<R extends FusionChildRunner, F extends FileCommitter> {
  readonly runner: R;
  readonly files: F;
  readonly clock: Clock;
  readonly random: RandomSource;
}

export interface ValidateHarness<R extends FusionChildRunner, F extends FileCommitter> extends HarnessDeps<R, F> {
  readonly budget: RecordingBudgetGate;
  readonly ports: FusionPorts;
  readonly progress: FusionProgress[];
  /** Normalises `args` as the tool does (refusing them the same way), then starts the run. */
  start(
    args?: unknown,
    overrides?: Partial<ValidateRunRequest>,
  ): Promise<Result<ValidateLaunch, InvalidArguments | FusionError>>;
  text(path: string): string | undefined;
}

export function validateHarness<
  R extends FusionChildRunner,
  F extends FileCommitter & { contents(path: string): Uint8Array | undefined },
>(deps: HarnessDeps<R, F>): ValidateHarness<R, F> {
  const budget = recordingBudgetGate();
  const progress: FusionProgress[] = [];
  const ports: FusionPorts = {
    runner: deps.runner,
    files: deps.files,
    clock: deps.clock,
    random: deps.random,
    onProgress: (p) => progress.push(p),
  };
  const decoder = new TextDecoder();
  return {
    ...deps,
    budget,
    ports,
    progress,
    start: async (args = validArguments(), overrides = {}) => {
      const request = normalizeValidateArguments(args);
      if (!request.ok) return request;
      return startValidateRun(ports, {
        request: request.value,
        cwd: BASE_DIR,
        routes: CANARY_ROUTES,
        thinkingLevel: "medium",
        budget,
        location: LOCATION,
        candidateExtensions: TEST_CANDIDATE_EXTENSIONS,
        ...overrides,
      });
    },
    text: (path) => {
      const bytes = deps.files.contents(path);
      return bytes === undefined ? undefined : decoder.decode(bytes);
    },
  };
}
