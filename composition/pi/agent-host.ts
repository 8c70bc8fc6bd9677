import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AttestedRunnerConfig } from "../../domain/attested/service/attested-pi-runner.ts";
import type { TaskSettings } from "../../domain/tasks/model/runtime-settings.ts";
import type { LaunchPlanner, TaskRuntimeConfig } from "../../domain/tasks/service/task-runtime.ts";
import { agentLaunchPlanner } from "../../adapters/node/agent-launch-planner.ts";
import { piChildEnv } from "../../adapters/node/pi-child-env.ts";
import type { PiCliLocation, PiCliNotFound } from "../../adapters/node/pi-cli-locator.ts";
import type { Result } from "../../domain/shared/model/result.ts";
import { piCliLaunch } from "../../domain/shared/model/pi-child-argv.ts";
import { contextWindowIndex } from "../../adapters/pi/model-windows.ts";

export interface AgentHostBindings {
  readonly planLaunch: LaunchPlanner;
  readonly attested: AttestedRunnerConfig;
}

/**
 * What agent tasks need from the Pi host, read once at session start: the context windows of the registry's
 * models, and how to start the very Pi CLI this session runs (process.argv[1] inside pi, else the installed
 * package) with this Node binary.
 */
export function agentHostBindings(
  ctx: ExtensionContext,
  settings: TaskSettings,
  config: TaskRuntimeConfig,
  cli: Result<PiCliLocation, PiCliNotFound>,
): AgentHostBindings {
  const windows = contextWindowIndex(ctx.modelRegistry.getAll());
  const nodePath = process.execPath;
  const planLaunch = agentLaunchPlanner({
    telemetryDisabled: settings.telemetryDisabled,
    env: process.env,
    nodePath,
    piCliPath: cli.ok ? cli.value.cliPath : undefined,
    windows,
  });
  return {
    planLaunch,
    attested: {
      cwd: config.cwd,
      taskDir: config.taskDir,
      displayDir: config.displayDir,
      piLaunch: cli.ok ? piCliLaunch(nodePath, cli.value.cliPath) : cli.error.message,
      childEnv: piChildEnv(process.env),
      windows,
    },
  };
}
