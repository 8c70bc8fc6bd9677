import type { Result } from "../domain/shared/model/result.ts";
import type { AfterLeaderExit, LaunchCommand, LaunchError, RunningProcess } from "./process-launcher.ts";

/** The process that hosts a task runtime: enough for a later process to tell whether it still runs. */
export interface HostIdentity {
  readonly pid: number;
  /** Opaque start stamp of the process (boot id and start time); compared for equality, so a reused pid is not mistaken for it. */
  readonly startedAt: string;
}

/** Where the supervisor of one task records how the command ended and keeps output once the host is gone. */
export interface SupervisionFiles {
  readonly exitPath: string;
  readonly spillPath: string;
  /** At most this many bytes go to the spill file; the rest is counted. */
  readonly spillCapBytes: number;
  /**
   * The task's output file, created empty by the host: a supervisor that can writes the command's output into it
   * itself while the host is connected (the process then has `writtenOutput`); one that cannot relays it.
   */
  readonly output?: OutputFileRequest;
}

/** What the supervisor does with the task's other processes when the command exits before them. */
export interface ShellExitPolicy {
  readonly afterShellExit: AfterLeaderExit;
  /** SIGTERM → SIGKILL grace for what `stop` stops. */
  readonly killGraceMs: number;
}

export interface SupervisedLaunch {
  readonly command: LaunchCommand;
  /** The command's whole environment, the process tag included. */
  readonly env: Readonly<Record<string, string>>;
  /** Carried by every process of the task; recorded so that a later host can find and stop them. */
  readonly processTag: string;
  readonly files: SupervisionFiles;
  readonly policy: ShellExitPolicy;
}

/**
 * Runs a task's command under a supervisor that outlives the host, applies the shell-exit policy to the
 * task's tree, and commits the exit status durably once nothing of the tree is left.
 */
export interface TaskSupervisor {
  /** The launch with its tag: recorded before anything starts. */
  wrap(
    command: LaunchCommand,
    env: Readonly<Record<string, string>>,
    files: SupervisionFiles,
    policy: ShellExitPolicy,
  ): SupervisedLaunch;
  /**
   * Starts it. The process's `pid` is the command's, `leaderExit` the command's end, `exited` the task's end
   * (with `lost` when the supervisor died first). Every failure to start is reported here.
   */
  launch(launch: SupervisedLaunch, cwd: string, stdin?: Uint8Array): Promise<Result<RunningProcess, LaunchError>>;
}

/**
 * The metadata files of one task directory (`<dir>/<id>.json`, nothing else). Entries of that name that
 * are not regular files, and directories that are symlinks, are listed as well, so the reader refuses them.
 */
export interface TaskDirListing {
  readonly dir: string;
  readonly metadataFiles: readonly string[];
}

/** The view of the machine a new session needs to take over tasks an ended host left behind. */
export interface SurvivorProbe {
  /** This process. */
  readonly self: HostIdentity;
  /** Every task directory under `root` (absent root: none). */
  listTaskDirs(root: string): Promise<readonly TaskDirListing[]>;
  /**
   * Whether the host that owns `taskDir` still runs: another live process with the same identity, or a live
   * task runtime of this very process. Without a start stamp only the pid and its program are checked.
   */
  hostAlive(host: { readonly pid: number; readonly startedAt?: string }, taskDir: string): Promise<boolean>;
  /** Whether `pid` is alive (not a zombie) and carries `tag`: the cheap check that a supervisor still runs. */
  carriesTag(pid: number, tag: string): Promise<boolean>;
  /** Every live process that carries `tag`. */
  taggedProcesses(tag: string): Promise<readonly number[]>;
  /** SIGTERM to every process carrying `tag`, SIGKILL after the grace to whatever is left; resolves with the pids found. */
  stopTagged(tag: string, graceMs: number): Promise<readonly number[]>;
}

/** Where the launcher writes a task's output itself: the file the host created, in the output cap's layout. */
export interface OutputFileRequest {
  readonly path: string;
  readonly capBytes: number;
  readonly capAction: "kill" | "keep_head_and_tail";
}
