import { ContainerModule } from "inversify";
import type { LaunchPlanner, TaskRuntimeConfig } from "../../domain/tasks/service/task-runtime.ts";
import type { Clock } from "../../ports/clock.ts";
import type { TaskNotifier } from "../../ports/task-notifier.ts";
import { CryptoRandomSource } from "../../adapters/node/crypto-random-source.ts";
import { NodeFileCommitter } from "../../adapters/node/node-file-committer.ts";
import { NodeProcessLauncher } from "../../adapters/node/node-process-launcher.ts";
import { processIdentity } from "../../adapters/node/node-survivor-probe.ts";
import { containerSettingsFiles } from "../../adapters/node/container-settings-files.ts";
import { DockerContainerBackends } from "../../adapters/node/docker-container-backends.ts";
import { userAgentDir } from "../../adapters/node/user-agent-dir.ts";
import { NodeTaskSupervisor } from "../../adapters/node/node-task-supervisor.ts";
import { TOKENS, type ChildHost } from "../tokens.ts";

export interface McpHostBindings {
  readonly config: TaskRuntimeConfig;
  readonly clock: Clock;
  readonly notifier: TaskNotifier;
  readonly warn: (message: string) => void;
  readonly planLaunch: LaunchPlanner;
  readonly children: ChildHost;
}

/**
 * Real adapters for the MCP host: child processes, the durable filesystem, the system clock, the MCP client
 * as the notice channel. No attested-run configuration is bound: attested runs and delegates need a session.
 */
export function mcpHostModule(host: McpHostBindings): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.launcher).toConstantValue(new NodeProcessLauncher());
    bind(TOKENS.files).toConstantValue(new NodeFileCommitter());
    bind(TOKENS.clock).toConstantValue(host.clock);
    bind(TOKENS.random).toConstantValue(new CryptoRandomSource());
    bind(TOKENS.notifier).toConstantValue(host.notifier);
    bind(TOKENS.warn).toConstantValue(host.warn);
    bind(TOKENS.taskConfig).toConstantValue(host.config);
    bind(TOKENS.launchPlanner).toConstantValue(host.planLaunch);
    bind(TOKENS.childHost).toConstantValue(host.children);
    const supervisor = new NodeTaskSupervisor();
    // Its tasks have been stopped or let go by then; the supervisor ends once the ones let go have ended.
    bind(TOKENS.survival)
      .toConstantValue({
        supervisor,
        host: processIdentity(process.pid),
        containers: new DockerContainerBackends(containerSettingsFiles(userAgentDir(process.env), host.config.cwd)),
      })
      .onDeactivation(() => supervisor.close());
  });
}
