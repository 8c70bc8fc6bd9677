import { calibratedEstimator } from "../domain/fusion/model/fusion-budget-plan.ts";
import { budgetGateFor } from "../domain/fusion/model/pinned-routes.ts";
import { FusionRuns } from "../domain/fusion/service/fusion-runs.ts";
import { err, ok } from "../domain/shared/model/result.ts";
import type { Clock } from "../ports/clock.ts";
import type { FileCommitter } from "../ports/file-committer.ts";
import type { ProcessLauncher } from "../ports/process-launcher.ts";
import type { RandomSource } from "../ports/random-source.ts";
import { FusionModelsStore } from "../adapters/node/fusion-models-store.ts";
import { PiChildRunner } from "../adapters/node/pi-child-runner.ts";
import {
  anthropicSanitizerExtensionPath,
  fusionChildExtensionPath,
  fusionWebFetchExtensionPath,
  toolAuditExtensionPath,
} from "../adapters/pi/child/extension-paths.ts";
import { PiFusionModels } from "../adapters/pi/pi-fusion-models.ts";
import { piInstallHint } from "./pi-install-hint.ts";
import type { ChildHost } from "./tokens.ts";

/** The adapters the host's container resolved that Fusion and delegate children use. */
export interface ChildAdapters {
  readonly files: FileCommitter;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly launcher: ProcessLauncher;
}

/**
 * Fusion runs over the host's adapters: `pi` children on the tagged launcher, routes from `fusion-models.json`,
 * the calibrated budget gate. Imported by application-module.ts on the first Fusion call.
 */
export function fusionRunsFor(host: ChildHost, adapters: ChildAdapters): FusionRuns {
  const { files, clock, random, launcher } = adapters;
  const runner = host.piCli.ok
    ? ok(
        new PiChildRunner({
          childExtensionPath: fusionChildExtensionPath(),
          anthropicSanitizerPath: anthropicSanitizerExtensionPath(),
          files,
          clock,
          baseEnv: host.env,
          cli: host.piCli.value,
          launcher,
        }),
      )
    : err({
        code: "pi_cli_not_found",
        message: `${piInstallHint(host.piCli.error.message)} No Fusion child was started.`,
      });
  return new FusionRuns({
    files,
    clock,
    random,
    runner,
    models: new PiFusionModels({
      saved: new FusionModelsStore({ agentDir: host.agentDir, files }),
      agentDir: host.agentDir,
      cwd: host.place.cwd,
    }),
    budgetGate: budgetGateFor(calibratedEstimator, "input-token-calibration.v1"),
    candidateExtensions: { webFetch: fusionWebFetchExtensionPath(), toolAudit: toolAuditExtensionPath() },
    place: host.place,
    pid: host.pid,
  });
}
