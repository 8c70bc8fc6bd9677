import { ContainerModule } from "inversify";
import { err, ok } from "../domain/shared/model/result.ts";
import { piInstallHint } from "./pi-install-hint.ts";
import { TOKENS } from "./tokens.ts";

/**
 * The use cases every host shares, over whatever adapters its module bound: Fusion runs (both workflows) and,
 * on hosts with sessions, delegates. Each is imported and built on its first use (most sessions start
 * neither); unbinding the container stops their live runs and children.
 */
export const applicationModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.fusionRuns)
    .toDynamicValue(async (ctx) => {
      const [
        { FusionRuns },
        { PiChildRunner },
        { PiFusionModels },
        { FusionModelsStore },
        { budgetGateFor },
        { calibratedEstimator },
        paths,
      ] = await Promise.all([
        import("../domain/fusion/service/fusion-runs.ts"),
        import("../adapters/node/pi-child-runner.ts"),
        import("../adapters/pi/pi-fusion-models.ts"),
        import("../adapters/node/fusion-models-store.ts"),
        import("../domain/fusion/model/pinned-routes.ts"),
        import("../domain/fusion/model/fusion-budget-plan.ts"),
        import("../adapters/pi/child/extension-paths.ts"),
      ]);
      const host = await ctx.getAsync(TOKENS.childHost);
      const files = await ctx.getAsync(TOKENS.files);
      const clock = await ctx.getAsync(TOKENS.clock);
      const runner = host.piCli.ok
        ? ok(
            new PiChildRunner({
              childExtensionPath: paths.fusionChildExtensionPath(),
              anthropicSanitizerPath: paths.anthropicSanitizerExtensionPath(),
              files,
              clock,
              baseEnv: host.env,
              cli: host.piCli.value,
              launcher: await ctx.getAsync(TOKENS.launcher),
            }),
          )
        : err({
            code: "pi_cli_not_found",
            message: `${piInstallHint(host.piCli.error.message)} No Fusion child was started.`,
          });
      return new FusionRuns({
        files,
        clock,
        random: await ctx.getAsync(TOKENS.random),
        runner,
        models: new PiFusionModels({
          saved: new FusionModelsStore({ agentDir: host.agentDir, files }),
          agentDir: host.agentDir,
          cwd: host.place.cwd,
        }),
        budgetGate: budgetGateFor(calibratedEstimator, "input-token-calibration.v1"),
        candidateExtensions: {
          webFetch: paths.fusionWebFetchExtensionPath(),
          toolAudit: paths.toolAuditExtensionPath(),
        },
        place: host.place,
        pid: host.pid,
      });
    })
    .inSingletonScope()
    .onDeactivation((runs) => runs.shutdown());
  bind(TOKENS.delegateRuns)
    .toDynamicValue(async (ctx) => {
      const [{ DelegateRuns }, { piChildEnv }] = await Promise.all([
        import("./delegate-runs.ts"),
        import("../adapters/node/pi-child-env.ts"),
      ]);
      const host = await ctx.getAsync(TOKENS.childHost);
      return new DelegateRuns({
        files: await ctx.getAsync(TOKENS.files),
        launcher: await ctx.getAsync(TOKENS.launcher),
        clock: await ctx.getAsync(TOKENS.clock),
        random: await ctx.getAsync(TOKENS.random),
        childEnv: (extra) => piChildEnv(host.env, extra),
      });
    })
    .inSingletonScope()
    .onDeactivation((runs) => runs.shutdown());
});
