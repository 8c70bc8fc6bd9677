/** The public shape of one background task, as tools, notifications, the dock and metadata show it. */
export type TaskStatus = "running" | "completed" | "failed" | "killed";

export type Unavailable = "unavailable";

export interface ContextUsage {
  readonly tokens: number | Unavailable;
  readonly contextWindow: number | Unavailable;
  readonly percent: number | Unavailable;
}

export interface TokenUsage {
  readonly input: number | Unavailable;
  readonly output: number | Unavailable;
  readonly cacheRead: number | Unavailable;
  readonly cacheWrite: number | Unavailable;
  readonly totalTokens: number | Unavailable;
  readonly costTotal: number | Unavailable;
}

export interface ToolUsage {
  readonly total: number;
  readonly failed: number;
  readonly byName: Readonly<Record<string, number>>;
}

export interface TaskTelemetry {
  readonly contextUsage?: ContextUsage;
  readonly tokenUsage?: TokenUsage;
  readonly toolUsage?: ToolUsage;
  readonly model?: string;
  readonly telemetryUnavailableReason?: string;
}

/** How the output file relates to everything the task printed. */
export interface OutputAccounting {
  /** Every byte the task wrote to stdout and stderr. */
  readonly producedBytes: number;
  /** Bytes kept in the output file (excluding the elision marker). */
  readonly keptBytes: number;
  /** Bytes dropped from the middle by the output cap (0 when under the cap). */
  readonly elidedBytes: number;
  readonly capBytes: number;
  readonly capAction: OutputCapAction;
  /** Bytes that could not be written (disk full, I/O error) after the output file failed; absent when none. */
  readonly unwrittenBytes?: number;
}

export type OutputCapAction = "keep_head_and_tail" | "kill";

export type KillKind = "user" | "timeout" | "output_cap" | "shutdown";

/** What an attested direct-spawn Pi run (bg_run_pi_attested) was asked to do and what was observed. */
export interface AttestedPiFacts {
  readonly provider: string;
  readonly model: string;
  readonly thinking?: string;
  /** `pi-codex-oauth`, `pi-anthropic-oauth`, `pi-oauth-other` or `api-key-or-local`. */
  readonly authClass: string;
  /** Relative to cwd. */
  readonly reportPath: string;
  /** Display paths of the raw evidence. */
  readonly eventsPath: string;
  readonly stderrPath: string;
  readonly promptSha256: string;
  /** Observed in the event stream once the run ended. */
  readonly sessionId?: string;
  readonly finalStopReason?: string;
}

export interface ShellExitFacts {
  readonly code: number | null;
  readonly signal: string | null;
  /** Epoch ms. */
  readonly at: number;
}

export interface RemainingProcessFacts {
  readonly pid: number;
  readonly command: string;
  /** Epoch ms, when known. */
  readonly startedAt?: number;
}

export interface TaskSnapshot extends TaskTelemetry {
  readonly schema_version: "pi-background-tasks.task.v1";
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly description?: string;
  readonly status: TaskStatus;
  /** Display path, relative to cwd. */
  readonly outputPath: string;
  readonly cwd: string;
  readonly startTime: number;
  readonly endTime?: number;
  readonly exitCode?: number;
  readonly signal?: string;
  readonly pid?: number;
  readonly bytesWritten: number;
  readonly output: OutputAccounting;
  readonly isAgent: boolean;
  readonly error?: string;
  readonly killKind?: KillKind;
  readonly notified: boolean;
  readonly notifyOnCompletion: boolean;
  readonly triggerOnCompletion: boolean;
  readonly timeoutSeconds?: number;
  /** Processes of the task that still ran when the grace after the command's exit ran out, and were stopped. */
  readonly strays?: number;
  /** `wait`: the task lasts as long as its last process (default: the rest is stopped after a grace). */
  readonly onShellExit?: "wait";
  /** Set when the command (the shell) exited while other processes of the task still ran: the task runs on. */
  readonly shellExit?: ShellExitFacts;
  /** While the task runs after its shell exited: the processes that still ran then. Absent once terminal. */
  readonly remaining?: readonly RemainingProcessFacts[];
  /** Terminal: how many processes outlived the shell (those stopped are counted in `strays`). */
  readonly descendants?: number;
  readonly attestedPi?: AttestedPiFacts;
  /** Display path of the attestation sidecar; set only on an attested run that completed. */
  readonly attestationPath?: string;
  /** Set on tasks that run a Fusion workflow in the host process (fusion_validate). */
  readonly fusion?: FusionTaskFacts;
  /** Set on delegated background agents (bg_delegate). */
  readonly delegate?: DelegateTaskFacts;
  /** The Pi process that owns the task (launched it, or took it over), so a later one can tell whether it still runs. */
  readonly hostPid?: number;
  /** Opaque start stamp of that process (Linux: boot id and start ticks), compared for equality against pid reuse. */
  readonly hostStartedAt?: string;
  /** Carried by every process of the task (PI_BG_PROCESS_TAG): a later host finds and stops them by it. */
  readonly processTag?: string;
  /** Opt-in: left running at session shutdown or reload and reattached by the next session. */
  readonly surviveReload?: boolean;
  /** When the host let go of this surviveReload task at shutdown (the output file was complete then). */
  readonly detachedAt?: number;
  /** The supervisor confirmed the hand-over: every byte before it is in the output file, every later one in the spill file. */
  readonly detachedInOrder?: true;
  /** Set once a later host took over this task after the host that started it had ended. */
  readonly recovery?: TaskRecovery;
  /** Set on a task that runs in a container (runOn docker or swarm). */
  readonly container?: ContainerFacts;
}

/** Where a container task ran: what its receipt and metadata say. */
export interface ContainerFacts {
  readonly runOn: "docker" | "swarm";
  readonly image: string;
  /** The image's id on the engine when the task was prepared (`sha256:…`): the container runs exactly that. */
  readonly imageId: string;
  /** The engine, as its endpoint names it (`unix:///var/run/docker.sock`, `tcp://…`). */
  readonly engine: string;
  /**
   * How the task sees the project tree: the host's directory bind-mounted at the same path ("bind", a local
   * engine), or a copy of it unpacked at the same path in the container ("copy", a remote engine).
   */
  readonly tree: "bind" | "copy";
  /** Whether the container had a network (the config's choice); absent in records of earlier versions. */
  readonly network?: boolean;
}

/** How a later host took over a task whose host had ended (crash, or a surviveReload shutdown). */
export interface TaskRecovery {
  /** When the later host took the task over. */
  readonly at: number;
  /** `died`: the host ended without letting go; `detached`: it let go on purpose (surviveReload). */
  readonly hostEnded: "died" | "detached";
  /** Display path of the file the supervisor saved output to once the host was gone. */
  readonly spillPath: string;
  /** Output saved there. */
  readonly spilledBytes: number;
  /** Output after the host was gone that was not kept (spill cap, write failure); unknown until the task ends. */
  readonly lostOutputBytes: number | Unavailable;
}

export interface DelegateTaskFacts {
  readonly artifactDir: string;
  readonly route: string;
  readonly childSessionId: string;
}

export interface FusionTaskFacts {
  readonly runId: string;
  readonly workflow: "validate" | "brainstorm";
  /** Absolute artifact directory of the run. */
  readonly artifactDir: string;
  /** SHA-256 of the committed result record, known once the run committed. */
  readonly resultSha256?: string;
}

export const isTerminal = (status: TaskStatus): boolean => status !== "running";
