import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { ContainerModule } from "inversify";
import type { TaskRuntimeConfig } from "../../domain/tasks/service/task-runtime.ts";
import { CryptoRandomSource } from "../../adapters/node/crypto-random-source.ts";
import { GitWorktreeInspector } from "../../adapters/node/git-worktree-inspector.ts";
import { NodeFileCommitter } from "../../adapters/node/node-file-committer.ts";
import { NodeProcessLauncher } from "../../adapters/node/node-process-launcher.ts";
import { processIdentity } from "../../adapters/node/node-survivor-probe.ts";
import { containerSettingsFiles } from "../../adapters/node/container-settings-files.ts";
import { DockerContainerBackends } from "../../adapters/node/docker-container-backends.ts";
import { userAgentDir } from "../../adapters/node/user-agent-dir.ts";
import { NodeTaskSupervisor } from "../../adapters/node/node-task-supervisor.ts";
import { SystemClock } from "../../adapters/node/system-clock.ts";
import { PiTaskNotifier } from "../../adapters/pi/pi-task-notifier.ts";
import type { AgentHostBindings } from "./agent-host.ts";
import { TOKENS, type ChildHost } from "../tokens.ts";

/** Real adapters: child processes, the durable filesystem, the system clock, and Pi's message bus. */
export function piHostModule(
  pi: ExtensionAPI,
  config: TaskRuntimeConfig,
  warn: (message: string) => void,
  agent: AgentHostBindings,
  children: ChildHost,
): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.launcher).toConstantValue(new NodeProcessLauncher());
    bind(TOKENS.files).toConstantValue(new NodeFileCommitter());
    bind(TOKENS.clock).toConstantValue(new SystemClock());
    bind(TOKENS.random).toConstantValue(new CryptoRandomSource());
    bind(TOKENS.notifier).toConstantValue(new PiTaskNotifier(pi));
    bind(TOKENS.warn).toConstantValue(warn);
    bind(TOKENS.taskConfig).toConstantValue(config);
    bind(TOKENS.launchPlanner).toConstantValue(agent.planLaunch);
    bind(TOKENS.worktree).toConstantValue(new GitWorktreeInspector());
    bind(TOKENS.attestedConfig).toConstantValue(agent.attested);
    bind(TOKENS.childHost).toConstantValue(children);
    const supervisor = new NodeTaskSupervisor();
    // Its tasks have been stopped or let go by then; the supervisor ends once the ones let go have ended.
    bind(TOKENS.survival)
      .toConstantValue({
        supervisor,
        host: processIdentity(process.pid),
        containers: new DockerContainerBackends(containerSettingsFiles(userAgentDir(process.env), config.cwd)),
      })
      .onDeactivation(() => supervisor.close());
  });
}
