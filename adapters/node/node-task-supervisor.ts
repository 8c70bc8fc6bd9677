import { fileURLToPath } from "node:url";
import type { LaunchCommand, LeaderExit, RunningProcess } from "../../ports/process-launcher.ts";
import type { ShellExitPolicy, SupervisedLaunch, SupervisionFiles, TaskSupervisor } from "../../ports/task-survival.ts";
import { commandLine } from "./launch-precheck.ts";
import { newProcessTag, taggedEnv } from "./process-tag.ts";
import { parseShellExitReport } from "./shell-exit-report.ts";

/** Where the supervisor keeps NODE_OPTIONS for the command: the supervisor itself runs without them. */
export const SUPERVISED_NODE_OPTIONS = "PI_BG_SUPERVISED_NODE_OPTIONS";

export function taskSupervisorPath(): string {
  return fileURLToPath(new URL("./task-supervisor.mjs", import.meta.url));
}

/**
 * Runs the command as `node task-supervisor.mjs <options> <file> <args…>` (see the script). A fresh tag is
 * added to the environment, so every process of the task can be found by the supervisor and a later host;
 * the launcher adds its own tag after it. The command's end reaches the host as the supervisor's report.
 */
export class NodeTaskSupervisor implements TaskSupervisor {
  constructor(
    private readonly nodePath: string = process.execPath,
    private readonly scriptPath: string = taskSupervisorPath(),
  ) {}

  wrap(
    command: LaunchCommand,
    env: Readonly<Record<string, string>>,
    files: SupervisionFiles,
    policy: ShellExitPolicy,
  ): SupervisedLaunch {
    const { file, args } = commandLine({ command, cwd: "/", env });
    const processTag = newProcessTag();
    const { NODE_OPTIONS: nodeOptions, ...rest } = taggedEnv(env, processTag);
    const options = { ...files, tag: processTag, ...policy, reports: true };
    return {
      command: { kind: "argv", file: this.nodePath, args: [this.scriptPath, JSON.stringify(options), file, ...args] },
      env: nodeOptions === undefined ? rest : { ...rest, [SUPERVISED_NODE_OPTIONS]: nodeOptions },
      processTag,
      reports: true,
    };
  }

  /** The command's end as the supervisor reported it; the supervisor's own exit if it died before reporting. */
  observe(supervisor: RunningProcess): RunningProcess {
    const reported = supervisor.reports === undefined ? undefined : shellExitOf(supervisor.reports);
    const leaderExit =
      reported === undefined
        ? supervisor.leaderExit
        : Promise.race([reported.then((exit) => exit ?? supervisor.leaderExit), supervisor.leaderExit]);
    return {
      pid: supervisor.pid,
      stdout: supervisor.stdout,
      stderr: supervisor.stderr,
      exited: supervisor.exited,
      leaderExit,
      killGroup: (options) => supervisor.killGroup(options),
      sweep: (options) => supervisor.sweep(options),
      ...(supervisor.detach === undefined ? {} : { detach: () => supervisor.detach?.() }),
    };
  }
}

/**
 * Reads the report pipe to its end; resolves with the first valid shell-exit report, if any. Never rejects:
 * a pipe closed on purpose (the host let go of the task) or broken is no report.
 */
async function shellExitOf(reports: AsyncIterable<Uint8Array>): Promise<LeaderExit | undefined> {
  try {
    return await firstShellExit(reports);
  } catch {
    return undefined;
  }
}

async function firstShellExit(reports: AsyncIterable<Uint8Array>): Promise<LeaderExit | undefined> {
  let text = "";
  let found: LeaderExit | undefined;
  for await (const chunk of reports) {
    text += Buffer.from(chunk).toString("utf8");
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n")) {
      found ??= parseShellExitReport(text.slice(0, nl));
      text = text.slice(nl + 1);
    }
    if (found !== undefined) return found; // the supervisor writes one line; leaving the loop closes the pipe
  }
  return found;
}
