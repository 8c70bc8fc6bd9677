import { ContainerModule } from "inversify";
import { AttestedPiRunner } from "../domain/attested/service/attested-pi-runner.ts";
import { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import { TOKENS } from "./tokens.ts";

/** The task runtime over whatever adapters the profile bound; stopping the container stops every task. */
export const taskRuntimeModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.taskRuntime)
    .toResolvedValue(
      (launcher, files, clock, random, notifier, warn, config, planLaunch, survival) =>
        new TaskRuntime(
          {
            launcher,
            files,
            clock,
            random,
            notifier,
            warn,
            planLaunch,
            supervisor: survival.supervisor,
            host: survival.host,
            containers: survival.containers,
          },
          config,
        ),
      [
        TOKENS.launcher,
        TOKENS.files,
        TOKENS.clock,
        TOKENS.random,
        TOKENS.notifier,
        TOKENS.warn,
        TOKENS.taskConfig,
        TOKENS.launchPlanner,
        TOKENS.survival,
      ],
    )
    .inSingletonScope()
    .onDeactivation((runtime) => runtime.shutdown());
  // Attested runs are tasks of that runtime; stopping the runtime stops them.
  bind(TOKENS.attestedRunner)
    .toResolvedValue(
      (runtime, files, random, worktree, config) => new AttestedPiRunner({ runtime, files, random, worktree }, config),
      [TOKENS.taskRuntime, TOKENS.files, TOKENS.random, TOKENS.worktree, TOKENS.attestedConfig],
    )
    .inSingletonScope();
});
