import { ContainerModule } from "inversify";
import { TOKENS } from "./tokens.ts";

/**
 * The use cases every host shares, over whatever adapters its module bound: Fusion runs (both workflows) and,
 * on hosts with sessions, delegates. Each is imported and built on its first use (most sessions start
 * neither); unbinding the container stops their live runs and children.
 */
export const applicationModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.fusionRuns)
    .toDynamicValue(async (ctx) => {
      const { fusionRunsFor } = await import("./fusion-wiring.ts");
      return fusionRunsFor(await ctx.getAsync(TOKENS.childHost), {
        files: await ctx.getAsync(TOKENS.files),
        clock: await ctx.getAsync(TOKENS.clock),
        random: await ctx.getAsync(TOKENS.random),
        launcher: await ctx.getAsync(TOKENS.launcher),
      });
    })
    .inSingletonScope()
    .onDeactivation((runs) => runs.shutdown());
  bind(TOKENS.delegateRuns)
    .toDynamicValue(async (ctx) => {
      const { delegateRunsFor } = await import("./delegate-wiring.ts");
      return delegateRunsFor(await ctx.getAsync(TOKENS.childHost), {
        files: await ctx.getAsync(TOKENS.files),
        launcher: await ctx.getAsync(TOKENS.launcher),
        clock: await ctx.getAsync(TOKENS.clock),
        random: await ctx.getAsync(TOKENS.random),
      });
    })
    .inSingletonScope()
    .onDeactivation((runs) => runs.shutdown());
});
