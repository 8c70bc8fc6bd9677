import { ok, type Result } from "../../domain/shared/model/result.ts";
import { EXIT_RECORD_SCHEMA, type ExitRecord } from "../../domain/tasks/model/exit-record.ts";
import type { Clock } from "../../ports/clock.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import type {
  LaunchCommand,
  LaunchError,
  LaunchSpec,
  ProcessLauncher,
  RunningProcess,
} from "../../ports/process-launcher.ts";
import type { RandomSource } from "../../ports/random-source.ts";
import type { ShellExitPolicy, SupervisedLaunch, SupervisionFiles, TaskSupervisor } from "../../ports/task-survival.ts";

const SUPERVISOR = "fake-task-supervisor";
export const FAKE_TASK_TAG_ENV = "FAKE_TASK_TAG";

/**
 * The supervisor twin, in two halves: `wrap` packs the command and its files into one recognisable
 * argv, and `launcher(inner)` runs such launches on `inner`, committing the exit record through `files`
 * once the command has ended. The host never lets go in a test, so nothing is ever spilled.
 */
export class FakeTaskSupervisor implements TaskSupervisor {
  constructor(
    private readonly random: RandomSource,
    private readonly files: FileCommitter,
    private readonly clock: Clock,
  ) {}

  wrap(
    command: LaunchCommand,
    env: Readonly<Record<string, string>>,
    files: SupervisionFiles,
    policy: ShellExitPolicy,
  ): SupervisedLaunch {
    const processTag = this.random.hex(16);
    return {
      command: { kind: "argv", file: SUPERVISOR, args: [JSON.stringify({ command, files, policy })] },
      env: { ...env, [FAKE_TASK_TAG_ENV]: processTag },
      processTag,
      reports: false,
    };
  }

  /** The launcher half already reports the command's own leader exit. */
  observe(supervisor: RunningProcess): RunningProcess {
    return supervisor;
  }

  launcher(inner: ProcessLauncher): ProcessLauncher {
    return { launch: (spec) => this.#launch(inner, spec) };
  }

  #launch(inner: ProcessLauncher, spec: LaunchSpec): Result<RunningProcess, LaunchError> {
    if (spec.command.kind !== "argv" || spec.command.file !== SUPERVISOR) return inner.launch(spec);
    const packed = JSON.parse(spec.command.args[0] ?? "{}") as {
      command: LaunchCommand;
      files: SupervisionFiles;
      policy: ShellExitPolicy;
    };
    const launched = inner.launch({ ...spec, command: packed.command, afterLeaderExit: packed.policy.afterShellExit });
    if (!launched.ok) return launched;
    const proc = launched.value;
    const exited = Promise.all([proc.exited, proc.leaderExit]).then(async ([exit, leader]) => {
      const descendants = leader.remaining.length;
      const record: ExitRecord = {
        schema_version: EXIT_RECORD_SCHEMA,
        code: exit.code,
        signal: exit.signal,
        endedAt: this.clock.now(),
        hostGone: false,
        spilledBytes: 0,
        lostOutputBytes: 0,
        ...(descendants === 0
          ? {}
          : { tree: { descendants, stopped: exit.strays ?? [], lastEndedAt: this.clock.now() } }),
      };
      const written = await this.files.replaceAtomic(
        packed.files.exitPath,
        new TextEncoder().encode(JSON.stringify(record)),
      );
      if (!written.ok)
        throw new Error(`FakeTaskSupervisor: cannot commit ${packed.files.exitPath}: ${written.error.message}`);
      return exit;
    });
    return ok({
      pid: proc.pid,
      stdout: proc.stdout,
      stderr: proc.stderr,
      exited,
      leaderExit: proc.leaderExit,
      killGroup: (options) => proc.killGroup(options),
      sweep: (options) => proc.sweep(options),
    });
  }
}
