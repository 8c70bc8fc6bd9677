import { ok, type Result } from "../../domain/shared/model/result.ts";
import { EXIT_RECORD_SCHEMA, type ExitRecord } from "../../domain/tasks/model/exit-record.ts";
import type { Clock } from "../../ports/clock.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import type { LaunchCommand, LaunchError, ProcessLauncher, RunningProcess } from "../../ports/process-launcher.ts";
import type { RandomSource } from "../../ports/random-source.ts";
import type { ShellExitPolicy, SupervisedLaunch, SupervisionFiles, TaskSupervisor } from "../../ports/task-survival.ts";

export const FAKE_TASK_TAG_ENV = "FAKE_TASK_TAG";

/**
 * The supervisor twin: runs the command on a launcher twin and commits the exit record through `files`
 * once the command has ended. The host never lets go in a test, so nothing is ever spilled.
 */
export class FakeTaskSupervisor implements TaskSupervisor {
  constructor(
    private readonly random: RandomSource,
    private readonly files: FileCommitter,
    private readonly clock: Clock,
    private readonly launcher: ProcessLauncher,
  ) {}

  wrap(
    command: LaunchCommand,
    env: Readonly<Record<string, string>>,
    files: SupervisionFiles,
    policy: ShellExitPolicy,
  ): SupervisedLaunch {
    const processTag = this.random.hex(16);
    return { command, env: { ...env, [FAKE_TASK_TAG_ENV]: processTag }, processTag, files, policy };
  }

  async launch(
    supervised: SupervisedLaunch,
    cwd: string,
    stdin?: Uint8Array,
  ): Promise<Result<RunningProcess, LaunchError>> {
    const launched = this.launcher.launch({
      command: supervised.command,
      cwd,
      env: supervised.env,
      afterLeaderExit: supervised.policy.afterShellExit,
      ...(stdin === undefined ? {} : { stdin }),
    });
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
      const exitPath = supervised.files.exitPath;
      const written = await this.files.replaceAtomic(exitPath, new TextEncoder().encode(JSON.stringify(record)));
      if (!written.ok) throw new Error(`FakeTaskSupervisor: cannot commit ${exitPath}: ${written.error.message}`);
      return exit;
    });
    return ok({
      pid: proc.pid,
      stdout: readNow(proc.stdout),
      stderr: readNow(proc.stderr),
      exited,
      leaderExit: proc.leaderExit,
      killGroup: (options) => proc.killGroup(options),
      sweep: (options) => proc.sweep(options),
    });
  }
}

/**
 * The stream, read from now on as the real supervisor reads the command's pipes the moment it starts: what
 * the command writes before the host iterates is kept, not discarded as an untouched pipe would be.
 */
function readNow(stream: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  void (async () => {
    for await (const chunk of stream) {
      chunks.push(chunk);
      wake?.();
    }
    ended = true;
    wake?.();
  })();
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const chunk = chunks.shift();
        if (chunk !== undefined) yield chunk;
        else if (ended) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
