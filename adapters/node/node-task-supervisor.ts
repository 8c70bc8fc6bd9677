import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { err, ok, type Result, typedError } from "../../domain/shared/model/result.ts";
import type { LaunchError, RunningProcess } from "../../ports/process-launcher.ts";
import type { SupervisedLaunch, TaskSupervisor } from "../../ports/task-survival.ts";
import { commandLine, launchProblem } from "./launch-precheck.ts";
import { taggedLaunch } from "./process-tag.ts";
import { parseReport, startOf } from "./supervisor-report.ts";
import { SupervisedTaskProcess } from "./supervised-task-process.ts";
import { SupervisorFrames } from "./supervisor-frames.ts";

export function taskSupervisorPath(): string {
  return fileURLToPath(new URL("./task-supervisor.mjs", import.meta.url));
}

/** A Unix socket path longer than this does not fit `sockaddr_un` on Linux. */
const MAX_SOCKET_PATH_BYTES = 107;
const READY_TIMEOUT_MS = 15_000;

interface Daemon {
  readonly pid: number;
  readonly socketPath: string;
  /** The host's own connection: the supervisor outlives the host's tasks only once it closes. */
  readonly hostLink: Socket;
  alive: boolean;
}

/**
 * Runs every task of this host under one supervisor process (task-supervisor.mjs), started at the first
 * task and kept while the host lives: the parent of every task, it relays their output, applies the
 * shell-exit policy to their trees, commits their exit records and outlives the host. A fresh tag is
 * added to each task's environment, so every process of the task can be found by the supervisor and a
 * later host. If the supervisor dies, the next task starts a new one.
 */
export class NodeTaskSupervisor implements TaskSupervisor {
  #daemon: Promise<Result<Daemon, string>> | undefined;
  #closed = false;

  constructor(
    private readonly nodePath: string = process.execPath,
    private readonly scriptPath: string = taskSupervisorPath(),
  ) {}

  readonly wrap = taggedLaunch;

  async launch(
    supervised: SupervisedLaunch,
    cwd: string,
    stdin?: Uint8Array,
  ): Promise<Result<RunningProcess, LaunchError>> {
    if (this.#closed)
      return err(typedError("spawn_failed", "the host is shutting down: no task is started under its supervisor"));
    const spec = { command: supervised.command, cwd, env: supervised.env };
    const problem = launchProblem(spec);
    if (problem !== undefined) return err(typedError("spawn_failed", `cannot start the process: ${problem}`));
    const { file, args } = commandLine(spec);
    const request = {
      kind: "task",
      file,
      args,
      cwd,
      env: supervised.env,
      ...(stdin === undefined ? {} : { stdin: Buffer.from(stdin).toString("base64") }),
      ...supervised.files,
      tag: supervised.processTag,
      ...supervised.policy,
    };
    for (let attempt = 1; ; attempt++) {
      const daemon = await this.#running();
      if (!daemon.ok) return err(typedError("spawn_failed", `cannot start ${JSON.stringify(file)}: ${daemon.error}`));
      const socket = createConnection(daemon.value.socketPath);
      socket.on("error", () => undefined); // a refused or broken connection shows as its close
      const frames = new SupervisorFrames(socket);
      socket.write(`${JSON.stringify(request)}\n`);
      const first = await frames.first();
      const start = first === undefined ? undefined : startOf(parseReport(first));
      if (start !== undefined && "pid" in start)
        return ok(
          new SupervisedTaskProcess(
            start.pid,
            supervised.processTag,
            socket,
            frames,
            daemon.value.pid,
            supervised.policy.killGraceMs,
            start.output,
          ),
        );
      socket.destroy();
      if (start !== undefined)
        return err(typedError("spawn_failed", `cannot start ${JSON.stringify(file)}: ${start.failure}`));
      // The supervisor ended between the check and the connection: one new supervisor, then give up.
      if (attempt === 2 || daemon.value.alive)
        return err(
          typedError(
            "spawn_failed",
            `cannot start ${JSON.stringify(file)}: the task supervisor (pid ${daemon.value.pid}) closed the connection before starting it`,
          ),
        );
    }
  }

  /** Closes the host's connection: the supervisor ends once the tasks it still runs have ended. */
  close(): void {
    this.#closed = true;
    const daemon = this.#daemon;
    this.#daemon = undefined;
    void daemon?.then((d) => {
      if (!d.ok) return;
      d.value.alive = false;
      d.value.hostLink.end();
    });
  }

  #running(): Promise<Result<Daemon, string>> {
    const current = this.#daemon;
    const reuse = current?.then((d) => (d.ok && d.value.alive ? d : undefined));
    const next = (async () => (await reuse) ?? (await this.#start()))();
    this.#daemon = next;
    return next;
  }

  async #start(): Promise<Result<Daemon, string>> {
    let dir: string;
    try {
      dir = mkdtempSync(join(tmpdir(), "pi-bg-supervisor-")); // 0700: only this user may connect
    } catch (error) {
      return err(`the task supervisor's directory cannot be created in ${tmpdir()}: ${describe(error)}`);
    }
    const socketPath = join(dir, "s");
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
      rmSync(dir, { recursive: true, force: true });
      return err(
        `the task supervisor's socket path ${JSON.stringify(socketPath)} is longer than ${MAX_SOCKET_PATH_BYTES} bytes; set TMPDIR to a shorter directory`,
      );
    }
    let child: ChildProcess;
    try {
      child = spawn(this.nodePath, [this.scriptPath, socketPath], {
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: {},
      });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      return err(`the task supervisor could not be started: ${describe(error)}`);
    }
    const ready = await readyLine(child);
    if (ready !== undefined || child.pid === undefined) {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      return err(`the task supervisor could not be started: ${ready ?? "no pid"}`);
    }
    child.unref();
    const hostLink = createConnection(socketPath);
    hostLink.on("error", () => undefined);
    hostLink.write(`${JSON.stringify({ kind: "host" })}\n`);
    hostLink.unref();
    const daemon: Daemon = { pid: child.pid, socketPath, hostLink, alive: true };
    hostLink.once("close", () => {
      const died = daemon.alive; // closed by the other end: the supervisor ended without removing its socket
      daemon.alive = false;
      if (died) rmSync(dir, { recursive: true, force: true });
    });
    return ok(daemon);
  }
}

/** Undefined once the supervisor printed "ready"; otherwise why it did not. Its pipes are closed either way. */
function readyLine(child: ChildProcess): Promise<string | undefined> {
  return new Promise((resolve) => {
    let out = "";
    let errText = "";
    const done = (why: string | undefined) => {
      clearTimeout(timer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.removeAllListeners("exit");
      resolve(why);
    };
    const timer = setTimeout(() => done(`it printed no "ready" within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes("ready\n")) done(undefined);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      errText += chunk.toString("utf8");
    });
    child.on("error", (error) => done(error.message));
    child.once("exit", (code, signal) => done(`it exited (${signal ?? code}) before it was ready: ${errText.trim()}`));
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
