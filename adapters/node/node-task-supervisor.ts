import { fileURLToPath } from "node:url";
import type { LaunchCommand } from "../../ports/process-launcher.ts";
import type { SupervisedLaunch, SupervisionFiles, TaskSupervisor } from "../../ports/task-survival.ts";
import { commandLine } from "./launch-precheck.ts";
import { newProcessTag, taggedEnv } from "./process-tag.ts";

/** Where the supervisor keeps NODE_OPTIONS for the command: the supervisor itself runs without them. */
export const SUPERVISED_NODE_OPTIONS = "PI_BG_SUPERVISED_NODE_OPTIONS";

export function taskSupervisorPath(): string {
  return fileURLToPath(new URL("./task-supervisor.mjs", import.meta.url));
}

/**
 * Runs the command as `node task-supervisor.mjs <exit> <spill> <cap> <file> <args…>` (see the script). A
 * fresh tag is added to the environment, so every process of the task can be found by a later host; the
 * launcher adds its own tag after it.
 */
export class NodeTaskSupervisor implements TaskSupervisor {
  constructor(
    private readonly nodePath: string = process.execPath,
    private readonly scriptPath: string = taskSupervisorPath(),
  ) {}

  wrap(command: LaunchCommand, env: Readonly<Record<string, string>>, files: SupervisionFiles): SupervisedLaunch {
    const { file, args } = commandLine({ command, cwd: "/", env });
    const processTag = newProcessTag();
    const { NODE_OPTIONS: nodeOptions, ...rest } = taggedEnv(env, processTag);
    return {
      command: {
        kind: "argv",
        file: this.nodePath,
        args: [this.scriptPath, files.exitPath, files.spillPath, String(files.spillCapBytes), file, ...args],
      },
      env: nodeOptions === undefined ? rest : { ...rest, [SUPERVISED_NODE_OPTIONS]: nodeOptions },
      processTag,
    };
  }
}
