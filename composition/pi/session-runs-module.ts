import { ContainerModule } from "inversify";
import { TOKENS } from "../tokens.ts";

/**
 * Fusion and delegate runs of a Pi session, over the session's adapters. Each is imported and built on its
 * first use (most sessions start neither); releasing the session's container stops their live runs.
 */
export const sessionRunsModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.fusionRuns)
    .toDynamicValue(async (ctx) => {
      const [{ FusionRuns, budgetGateFor }, { calibratedEstimator }] = await Promise.all([
        import("../fusion-runs.ts"),
        import("../../domain/fusion/model/fusion-budget-plan.ts"),
      ]);
      return new FusionRuns({
        files: await ctx.getAsync(TOKENS.files),
        clock: await ctx.getAsync(TOKENS.clock),
        random: await ctx.getAsync(TOKENS.random),
        launcher: await ctx.getAsync(TOKENS.launcher),
        budgetGate: budgetGateFor(calibratedEstimator, "input-token-calibration.v1"),
      });
    })
    .inSingletonScope()
    .onDeactivation((runs) => runs.shutdown());
  bind(TOKENS.delegateRuns)
    .toDynamicValue(async (ctx) => {
      const [{ DelegateRuns }, { piChildEnv }] = await Promise.all([
        import("../delegate-runs.ts"),
        import("../../adapters/node/pi-child-env.ts"),
      ]);
      return new DelegateRuns({
        files: await ctx.getAsync(TOKENS.files),
        launcher: await ctx.getAsync(TOKENS.launcher),
        clock: await ctx.getAsync(TOKENS.clock),
        random: await ctx.getAsync(TOKENS.random),
        childEnv: (extra) => piChildEnv(process.env, extra),
      });
    })
    .inSingletonScope()
    .onDeactivation((runs) => runs.shutdown());
});
