import type { ContainerBackendError } from "../../../ports/container-backend.ts";
import { alignToCharacters, invalidUtf8 } from "../model/utf8-slice.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { ensureArtifactDir } from "../../shared/service/artifact-dir.ts";
import { type LogReadRequest, planLogRead } from "../model/log-read.ts";
import { renderNotification, shortTail } from "../model/notification.ts";
import type { RunRequest } from "../model/run-request.ts";
import { type LookupError, resolveTaskId } from "../model/task-lookup.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import { initialSnapshot } from "./initial-snapshot.ts";
import type { LaunchPlan } from "./launch-plan.ts";
import { type LogSlice, logSliceText } from "./log-slice.ts";
import { OutputSink } from "./output-sink.ts";
import type { RecoveredTask } from "./recovered-task.ts";
import { afterShellExit, prepareContainer, supervise, survivalFields } from "./supervised-launch.ts";
import { TaskExecution } from "./task-execution.ts";
import { TaskMetadataWriter } from "./task-metadata-writer.ts";
import { endAtShutdown } from "./task-shutdown.ts";
import type { TaskRuntimeConfig, TaskRuntimeDeps } from "./task-runtime-config.ts";
import type { TrackedTask } from "./tracked-task.ts";

export type { LaunchPlan, LaunchPlanner } from "./launch-plan.ts";
export type { LogSlice } from "./log-slice.ts";
export type { TaskRuntimeConfig, TaskRuntimeDeps } from "./task-runtime-config.ts";

export type StartError =
  | TypedError<"runtime_shutting_down" | "task_dir_unwritable" | "task_id_in_use" | "survive_reload_unavailable">
  | ContainerBackendError;
export type KillError = LookupError | TypedError<"task_not_running">;
export type LogError = LookupError | TypedError<"output_unreadable" | "untrusted_file">;

type Listener = (snapshot: TaskSnapshot) => void;

/** How long a shutdown waits for starts under way beyond the kill grace (a container start includes its image and tree). */
const STARTS_WAIT_MS = 10_000;

/** The background task registry: start, inspect, read, stop, and deliver exactly one notice per task. */
export class TaskRuntime {
  private readonly tasks = new Map<string, TrackedTask>();
  private readonly listeners = new Set<Listener>();
  private shuttingDown = false;
  /** Starts under way: a shutdown waits for them, so a task whose launch it overtook is stopped too. */
  private readonly starting = new Set<Promise<unknown>>();
  /** The shutdown has taken its list of tasks: one whose start ends later is ended at once. */
  private shutdownListed = false;

  constructor(
    private readonly deps: TaskRuntimeDeps,
    private readonly config: TaskRuntimeConfig,
  ) {}

  async start(request: RunRequest, plan?: LaunchPlan): Promise<Result<TaskSnapshot, StartError>> {
    const started = this.startTask(request, plan);
    this.starting.add(started);
    return started.finally(() => this.starting.delete(started));
  }

  private async startTask(request: RunRequest, plan?: LaunchPlan): Promise<Result<TaskSnapshot, StartError>> {
    if (this.shuttingDown)
      return err({
        code: "runtime_shutting_down",
        message: "The Pi session is shutting down; no new background task was started (runtime_shutting_down).",
      });
    if (request.surviveReload === true && (this.deps.supervisor === undefined || plan?.start !== undefined)) {
      return err({
        code: "survive_reload_unavailable",
        message:
          "surviveReload needs the task supervisor, which this host does not run; no task was started (survive_reload_unavailable).",
      });
    }
    if (plan?.id !== undefined && this.tasks.has(plan.id))
      return err({ code: "task_id_in_use", message: `Task id ${plan.id} is already in use; no task was started.` });
    const id = plan?.id ?? this.newId();
    const container = await prepareContainer(this.deps.containers, this.deps.host, request, id);
    if (!container.ok) return container;
    const dir = await ensureArtifactDir(this.deps.files, this.config.taskDir);
    if (!dir.ok)
      return err({
        code: "task_dir_unwritable",
        message: `Task directory ${this.config.taskDir} cannot be created (${dir.error.osCode ?? dir.error.code}); no task was started.`,
      });
    const shell = {
      kind: "shell",
      command: request.command,
      ...(this.config.shell ? { shell: this.config.shell } : {}),
    } as const;
    // A container gets none of the host's environment: only what the image sets.
    const launch =
      container.value === undefined
        ? (plan ?? this.deps.planLaunch?.(request, shell) ?? { command: shell })
        : { command: { kind: "shell", command: request.command } as const, env: {} };
    const after = afterShellExit(request, this.config);
    const supervisor = container.value?.supervisor ?? this.deps.supervisor;
    const output = {
      path: `${this.config.taskDir}/${id}.output`,
      capBytes: this.config.outputCapBytes,
      capAction: request.onOutputCap,
    };
    const unfiltered = launch.stdoutFilter === undefined && launch.stderrFilter === undefined;
    const supervised =
      launch.start === undefined
        ? supervise(supervisor, this.config, id, launch, after, unfiltered ? output : undefined)
        : undefined;
    const sink = await OutputSink.create(this.deps.files, output.path, output.capBytes, output.capAction);
    if (!sink.ok)
      return err({
        code: "task_dir_unwritable",
        message: `Output file for ${id} cannot be created (${sink.error.osCode ?? sink.error.code}): ${sink.error.message}; no task was started.`,
      });
    const metadata = new TaskMetadataWriter(this.deps.files, `${this.config.taskDir}/${id}.json`);
    const before = {
      ...initialSnapshot(this.config, this.deps.clock.now(), id, request, undefined, launch.telemetryUnavailableReason),
      ...launch.facets,
      ...survivalFields(this.deps.host, request, supervised),
      ...(container.value === undefined ? {} : { container: container.value.facts }),
    };
    const saved = await metadata.write(before);
    if (!saved.ok) {
      await sink.value.close(); // release its descriptor; the empty output file stays as evidence
      return err({
        code: "task_dir_unwritable",
        message: `Metadata for ${id} cannot be written (${saved.error.osCode ?? saved.error.code}); no process was started.`,
      });
    }
    const spawned =
      launch.start?.() ??
      (supervised === undefined || supervisor === undefined
        ? this.deps.launcher.launch({
            command: launch.command,
            cwd: this.config.cwd,
            env: launch.env ?? this.config.env,
            afterLeaderExit: after,
            ...(launch.stdin === undefined ? {} : { stdin: launch.stdin }),
          })
        : await supervisor.launch(supervised, this.config.cwd, launch.stdin));
    const child = spawned.ok ? spawned.value : undefined;
    const initial = spawned.ok ? { ...before, pid: spawned.value.pid } : before;
    if (spawned.ok)
      void metadata.write(initial).then((r) => r.ok || this.deps.warn(`Task ${id}: pid not saved: ${r.error.message}`));
    const current = new TaskExecution(
      initial,
      child,
      sink.value,
      metadata,
      { clock: this.deps.clock, files: this.deps.files, killGraceMs: this.config.killGraceMs },
      (terminal) => this.afterTerminal(terminal),
      spawned.ok ? undefined : `Could not start the command: ${spawned.error.message}`,
      {
        ...(launch.stdoutFilter === undefined ? {} : { stdoutFilter: launch.stdoutFilter }),
        ...(launch.stderrFilter === undefined ? {} : { stderrFilter: launch.stderrFilter }),
        ...(launch.completion === undefined ? {} : { completion: launch.completion }),
        onProgress: (snapshot) => this.emit(snapshot),
      },
    );
    this.tasks.set(id, current);
    this.emit(current.snapshot);
    if (this.shutdownListed) void endAtShutdown(current, this.deps.warn); // its start outlasted the shutdown's wait
    return ok(current.snapshot);
  }

  /**
   * Takes over tasks an ended host left behind (see task-recovery.ts): terminal ones are published (their
   * notice delivered), running ones are watched until they end. An id already in use here is skipped.
   */
  adopt(recovered: readonly RecoveredTask[]): void {
    for (const task of recovered) {
      const id = task.snapshot.id;
      if (this.tasks.has(id)) {
        this.deps.warn(`Recovered task ${id} was not adopted: this session already has a task with that id`);
        continue;
      }
      this.tasks.set(id, task);
      if (task.isRunning) this.emit(task.snapshot);
      task.begin(
        (terminal) => this.afterTerminal(terminal),
        (snapshot) => this.emit(snapshot),
      );
    }
  }

  /** Newest first. */
  list(): TaskSnapshot[] {
    return [...this.tasks.values()].map((t) => t.snapshot).sort((a, b) => b.startTime - a.startTime);
  }

  find(query: string): Result<TaskSnapshot, LookupError> {
    const id = resolveTaskId(query, [...this.tasks.keys()]);
    return id.ok ? ok(this.execution(id.value).snapshot) : id;
  }

  async readLog(query: string, request: LogReadRequest): Promise<Result<LogSlice, LogError>> {
    const id = resolveTaskId(query, [...this.tasks.keys()]);
    if (!id.ok) return id;
    const task = this.execution(id.value);
    const read = await task.readLog((produced, layout) => planLogRead(layout, produced, request));
    if (!read.ok) {
      const untrusted = read.error.code === "untrusted_file";
      return err({
        code: untrusted ? "untrusted_file" : "output_unreadable",
        message: `Output file of ${id.value} cannot be read (${untrusted ? read.error.code : (read.error.osCode ?? read.error.code)}): ${read.error.message}`,
      });
    }
    const bytesRead = read.value.bytes.reduce((n, b) => n + b.length, 0);
    if (request.encoding === "base64") {
      const { plan, bytes } = read.value;
      return ok({ task: task.snapshot, plan, text: logSliceText(plan, bytes, "base64"), bytesRead });
    }
    const edges = { startChosen: request.offset === undefined, growing: task.snapshot.status === "running" };
    const { plan, pieces } = alignToCharacters(read.value.plan, read.value.bytes, edges);
    const invalid = invalidUtf8(plan, pieces);
    const text = logSliceText(plan, pieces, "utf8");
    return ok({ task: task.snapshot, plan, text, bytesRead, ...(invalid === undefined ? {} : { invalid }) });
  }

  async kill(query: string): Promise<Result<TaskSnapshot, KillError>> {
    const id = resolveTaskId(query, [...this.tasks.keys()]);
    if (!id.ok) return id;
    const task = this.execution(id.value);
    if (!task.isRunning)
      return err({
        code: "task_not_running",
        message: `Task ${id.value} is ${task.snapshot.status}, not running (task_not_running).`,
      });
    return ok(await task.stop("user"));
  }

  /** Resolves when the task is terminal and its notice (if any) was handled. */
  async waitForTerminal(query: string): Promise<Result<TaskSnapshot, LookupError>> {
    const id = resolveTaskId(query, [...this.tasks.keys()]);
    return id.ok ? ok(await this.execution(id.value).whenTerminal()) : id;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends every task as `endAtShutdown` says (no notices), once the starts under way are done; waits until all are durable. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    await this.startsSettled(this.config.killGraceMs + STARTS_WAIT_MS);
    this.shutdownListed = true;
    await Promise.all([...this.tasks.values()].map((t) => endAtShutdown(t, this.deps.warn)));
    this.listeners.clear();
  }

  /** Resolves once the starts under way are done, or after `ms` (an engine that stalls cannot hold the exit). */
  private startsSettled(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.deps.clock.after(ms, resolve);
      void Promise.allSettled([...this.starting]).then(() => {
        timer.cancel();
        resolve();
      });
    });
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  private execution(id: string): TrackedTask {
    const task = this.tasks.get(id);
    if (task === undefined) throw new Error(`task ${id} vanished from the registry`);
    return task;
  }

  private newId(): string {
    for (;;) {
      const id = `b${this.deps.random.hex(4)}`;
      if (!this.tasks.has(id)) return id;
    }
  }

  private async afterTerminal(terminal: TaskSnapshot): Promise<TaskSnapshot> {
    this.emit(terminal);
    const settled = await this.deliverNotice(terminal);
    this.prune();
    return settled;
  }

  private async deliverNotice(terminal: TaskSnapshot): Promise<TaskSnapshot> {
    if (!terminal.notifyOnCompletion || this.shuttingDown) return terminal;
    const task = this.execution(terminal.id);
    const tail = await task.readLog((produced, layout) =>
      planLogRead(layout, produced, { maxBytes: 2048, tail: true }),
    );
    const excerpt = tail.ok
      ? shortTail(Buffer.concat(tail.value.bytes).toString("utf8"))
      : "(output could not be read)";
    const notice = renderNotification(terminal, excerpt);
    // A task another conversation started (taken over after its host ended) is shown, but starts no turn here.
    const delivered = await this.deps.notifier.deliver(task.wakesAgent ? notice : { ...notice, triggerTurn: false });
    if (!delivered.ok) {
      this.deps.warn(`Completion notice for ${terminal.id} was not delivered: ${delivered.error.message}`);
      return terminal;
    }
    task.update({ notified: true });
    const notified = task.snapshot;
    const saved = await task.metadata.write(notified);
    if (!saved.ok) this.deps.warn(`Task ${terminal.id}: the notified flag could not be saved: ${saved.error.message}`);
    this.emit(notified);
    return notified;
  }

  /** Forgets the oldest finished tasks beyond those retained; runs at every end, so a count decides the usual case. */
  private prune(): void {
    let finishedCount = 0;
    for (const task of this.tasks.values()) if (!task.isRunning) finishedCount++;
    if (finishedCount <= this.config.retainTasks) return;
    const finished = this.list().filter((t) => t.status !== "running");
    for (const old of finished.slice(this.config.retainTasks)) this.tasks.delete(old.id);
  }

  private emit(snapshot: TaskSnapshot): void {
    for (const listener of this.listeners) listener(snapshot);
  }
}
