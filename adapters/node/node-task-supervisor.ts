import { fileURLToPath } from "node:url";
import type { LaunchCommand, LeaderExit, RunningProcess } from "../../ports/process-launcher.ts";
import type { ShellExitPolicy, SupervisedLaunch, SupervisionFiles, TaskSupervisor } from "../../ports/task-survival.ts";
import { commandLine } from "./launch-precheck.ts";
import { newProcessTag, taggedEnv } from "./process-tag.ts";
import { parseShellExitReport, parseTreeEndReport } from "./shell-exit-report.ts";

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
    const reports = supervisor.reports === undefined ? undefined : readReports(supervisor.reports);
    const leaderExit =
      reports === undefined
        ? supervisor.leaderExit
        : Promise.race([reports.shellExit.then((exit) => exit ?? supervisor.leaderExit), supervisor.leaderExit]);
    // What the supervisor stopped of the tree counts as stopped by the task, as with a plain launch.
    const exited =
      reports === undefined
        ? supervisor.exited
        : Promise.all([supervisor.exited, reports.stopped]).then(([exit, stopped]) =>
            stopped.length === 0 ? exit : { ...exit, strays: [...(exit.strays ?? []), ...stopped] },
          );
    return {
      pid: supervisor.pid,
      stdout: supervisor.stdout,
      stderr: supervisor.stderr,
      exited,
      leaderExit,
      killGroup: (options) => supervisor.killGroup(options),
      sweep: (options) => supervisor.sweep(options),
      ...(supervisor.detach === undefined ? {} : { detach: () => supervisor.detach?.() }),
    };
  }
}

/**
 * Reads the report pipe to its end: the command's exit as soon as it is reported, and the pids the supervisor
 * stopped once the pipe has closed. Never rejects: a pipe closed on purpose (the host let go of the task) or
 * broken reports nothing more.
 */
function readReports(reports: AsyncIterable<Uint8Array>): {
  readonly shellExit: Promise<LeaderExit | undefined>;
  readonly stopped: Promise<readonly number[]>;
} {
  let reportShellExit: (exit: LeaderExit | undefined) => void = () => undefined;
  const shellExit = new Promise<LeaderExit | undefined>((resolve) => (reportShellExit = resolve));
  const stopped = (async () => {
    let text = "";
    let pids: readonly number[] = [];
    try {
      for await (const chunk of reports) {
        text += Buffer.from(chunk).toString("utf8");
        for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n")) {
          const line = text.slice(0, nl);
          text = text.slice(nl + 1);
          const exit = parseShellExitReport(line);
          if (exit !== undefined) reportShellExit(exit);
          pids = parseTreeEndReport(line) ?? pids;
        }
      }
    } catch {
      // closed on purpose or broken: nothing more is reported
    }
    reportShellExit(undefined);
    return pids;
  })();
  return { shellExit, stopped };
}
