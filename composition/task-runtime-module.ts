import { ContainerModule } from "inversify";
import { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import { TOKENS } from "./tokens.ts";

/** The task runtime over whatever adapters the profile bound; stopping the container stops every task. */
export const taskRuntimeModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.taskRuntime)
    .toResolvedValue(
      (launcher, files, clock, random, notifier, warn, config) => new TaskRuntime({ launcher, files, clock, random, notifier, warn }, config),
      [TOKENS.launcher, TOKENS.files, TOKENS.clock, TOKENS.random, TOKENS.notifier, TOKENS.warn, TOKENS.taskConfig],
    )
    .inSingletonScope()
    .onDeactivation((runtime) => runtime.shutdown());
});
