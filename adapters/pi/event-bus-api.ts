import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";
import {
  BUS_CHANNELS,
  type BusRequest,
  CAPABILITIES,
  errorResponse,
  okResponse,
  parseRequestFrame,
  RequestIdLedger,
  type ResponseFrame,
  terminalFrame,
} from "../../domain/tasks/model/event-bus-frames.ts";
import { isTerminal, type TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import type { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";
import type { RuntimeLifecycle } from "./runtime-lifecycle.ts";
import type { RuntimeAccess } from "../../domain/tasks/service/task-tool-specs.ts";

/** The part of Pi's `pi.events` the API uses. */
export interface EventBusLike {
  emit(channel: string, data: unknown): void;
  on(channel: string, handler: (data: unknown) => void): () => void;
}

export const PUBLISH_RETRY_MS = 100;

type State = "idle" | "open" | "closed";

/**
 * Serves `pi-background-tasks:request:v1` on Pi's EventBus and publishes exactly one terminal frame per
 * task once its terminal metadata is durable (the runtime announces terminal snapshots only then).
 * A terminal frame waits for the response of any run/kill request in flight that concerns it, plus one
 * microtask, so a consumer always sees its response first. After close nothing is answered or published.
 */
export class EventBusApi {
  private state: State = "idle";
  private ledger = new RequestIdLedger();
  private readonly published = new Set<string>();
  private readonly runsInFlight = new Set<Promise<void>>();
  private readonly killBarriers = new Map<string, Promise<void>>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private stopRequests: (() => void) | undefined;
  private stopTerminal: (() => void) | undefined;

  constructor(
    private readonly bus: EventBusLike,
    private readonly runtime: RuntimeAccess,
    private readonly warn: (message: string) => void = (message) =>
      process.stderr.write(`[pi-background-tasks] ${message}\n`),
    /** When given, the runtime is built on first need: by the first request, or attached when something else builds it. */
    private readonly lifecycle?: RuntimeLifecycle,
  ) {}

  /** Answers requests from now on (before open they are refused with session_not_started). */
  listen(): void {
    this.stopRequests ??= this.bus.on(BUS_CHANNELS.request, (raw) => void this.onRequest(raw));
  }

  /** Call at session_start, after the runtime exists (or, with a lifecycle, once the session can build it). */
  open(): void {
    this.listen();
    if (this.lifecycle === undefined) {
      this.stopTerminal?.();
      // Subscribe first: if the session's runtime could not be built, requests keep getting session_not_started.
      this.stopTerminal = this.runtime().subscribe((snapshot) => this.onSnapshot(snapshot));
    } else {
      const built = this.lifecycle.built();
      if (built !== undefined) this.attach(built);
    }
    this.ledger = new RequestIdLedger();
    this.state = "open";
  }

  /** Publishes the terminal frames of this runtime's tasks (called with each runtime its lifecycle builds). */
  attach(runtime: TaskRuntime): void {
    this.stopTerminal?.();
    this.stopTerminal = runtime.subscribe((snapshot) => this.onSnapshot(snapshot));
  }

  /** Call at session_shutdown, after the runtime stopped: nothing is answered, retried or published afterwards. */
  close(): void {
    this.state = "closed";
    this.stopTerminal?.();
    this.stopTerminal = undefined;
    this.stopRequests?.();
    this.stopRequests = undefined;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
  }

  private async onRequest(raw: unknown): Promise<void> {
    const parsed = parseRequestFrame(raw);
    if (!parsed.ok) return this.respond(errorResponse(parsed.error.requestId, parsed.error.operation, parsed.error));
    const { requestId, operation } = parsed.value;
    if (
      operation === "capabilities" &&
      this.state === "open" &&
      this.lifecycle !== undefined &&
      this.lifecycle.built() === undefined
    ) {
      // Asking what the API offers needs no runtime, and must not build one.
      return this.respond(
        this.ledger.accept(requestId)
          ? okResponse(requestId, operation, CAPABILITIES)
          : duplicateId(requestId, operation),
      );
    }
    let runtime: Result<TaskRuntime, TypedError>;
    try {
      runtime = await this.sessionRuntime();
    } catch (error) {
      this.respond(errorResponse(requestId, operation, internalError(operation, error)));
      throw error;
    }
    if (!runtime.ok) return this.respond(errorResponse(requestId, operation, runtime.error));
    if (!this.ledger.accept(requestId)) return this.respond(duplicateId(requestId, operation));
    let release = (): void => undefined;
    const barrier = new Promise<void>((resolve) => (release = resolve));
    try {
      const result = await this.execute(parsed.value, runtime.value, barrier);
      this.respond(
        result.ok ? okResponse(requestId, operation, result.value) : errorResponse(requestId, operation, result.error),
      );
    } catch (error) {
      this.respond(errorResponse(requestId, operation, internalError(operation, error)));
      throw error;
    } finally {
      release();
    }
  }

  /** The active runtime; a lifecycle builds it first if the session has not needed it yet. */
  private async sessionRuntime(): Promise<Result<TaskRuntime, TypedError>> {
    if (this.state === "open" && this.lifecycle !== undefined && this.lifecycle.built() === undefined) {
      const failure = await this.lifecycle.ready().then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      // A session that ended meanwhile is answered below from the state; any other failure is a bug.
      if (failure !== undefined && (failure.error as { code?: unknown }).code !== "session_not_started")
        throw failure.error;
    }
    return this.activeRuntime();
  }

  private activeRuntime(): Result<TaskRuntime, TypedError> {
    if (this.state === "idle")
      return {
        ok: false,
        error: {
          code: "session_not_started",
          message: "The Pi session has not started yet; send requests after session_start (session_not_started)",
        },
      };
    const shuttingDown = {
      ok: false as const,
      error: {
        code: "session_shutting_down",
        message: "The Pi session is shutting down; no request is served (session_shutting_down)",
      },
    };
    if (this.state === "closed") return shuttingDown;
    try {
      const runtime = this.runtime();
      return runtime.isShuttingDown ? shuttingDown : ok(runtime);
    } catch (error) {
      // The session scope is being released: its accessor reports session_not_started.
      if ((error as { code?: unknown }).code === "session_not_started") return shuttingDown;
      throw error;
    }
  }

  private async execute(
    request: BusRequest,
    runtime: TaskRuntime,
    barrier: Promise<void>,
  ): Promise<Result<unknown, TypedError>> {
    switch (request.operation) {
      case "capabilities":
        return ok(CAPABILITIES);
      case "run": {
        this.runsInFlight.add(barrier);
        void barrier.then(() => this.runsInFlight.delete(barrier));
        return runtime.start(request.run);
      }
      case "status": {
        if (request.taskId === undefined) return ok({ tasks: runtime.list() });
        const found = runtime.find(request.taskId);
        return found.ok ? ok({ tasks: [found.value] }) : found;
      }
      case "logs": {
        const slice = await runtime.readLog(request.taskId, request.read);
        if (!slice.ok) return slice;
        const { task, plan, bytesRead, text } = slice.value;
        return ok({
          task,
          path: task.outputPath,
          bytesRead,
          truncated: plan.partial || plan.elidedInWindow > 0,
          tail: request.read.tail,
          windowStart: plan.windowStart,
          windowEnd: plan.windowEnd,
          produced: plan.produced,
          nextOffset: plan.nextOffset,
          elidedBytes: plan.elidedInWindow,
          text,
        });
      }
      case "kill": {
        const found = runtime.find(request.taskId);
        if (!found.ok) return found;
        this.killBarriers.set(found.value.id, barrier);
        void barrier.then(
          () => this.killBarriers.get(found.value.id) === barrier && this.killBarriers.delete(found.value.id),
        );
        const killed = await runtime.kill(found.value.id);
        return killed.ok
          ? ok({
              task: killed.value,
              message: `Killed background task ${killed.value.name} (${killed.value.id}). Status: ${killed.value.status}. Output: ${killed.value.outputPath}`,
            })
          : killed;
      }
    }
  }

  private respond(frame: ResponseFrame): void {
    if (this.state === "closed") return;
    this.bus.emit(BUS_CHANNELS.response, frame);
  }

  private onSnapshot(snapshot: TaskSnapshot): void {
    if (!isTerminal(snapshot.status) || this.published.has(snapshot.id)) return;
    this.published.add(snapshot.id);
    const waits = [...this.runsInFlight, this.killBarriers.get(snapshot.id) ?? Promise.resolve()];
    void Promise.all(waits)
      .then(() => Promise.resolve())
      .then(() => this.publishTerminal(snapshot));
  }

  private publishTerminal(snapshot: TaskSnapshot, attempt = 1): void {
    if (this.state === "closed") return;
    try {
      this.bus.emit(BUS_CHANNELS.terminal, terminalFrame(snapshot));
    } catch (error) {
      // The bus itself failed (not a listener: Pi isolates those). Try again until it works or the session ends.
      if (attempt === 1)
        this.warn(
          `Terminal frame for ${snapshot.id} could not be published (${error instanceof Error ? error.message : String(error)}); retrying every ${PUBLISH_RETRY_MS} ms`,
        );
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        this.publishTerminal(snapshot, attempt + 1);
      }, PUBLISH_RETRY_MS);
      timer.unref();
      this.retries.add(timer);
    }
  }
}

function duplicateId(requestId: string, operation: BusRequest["operation"]): ResponseFrame {
  return errorResponse(requestId, operation, {
    code: "duplicate_request_id",
    message: `Request id '${requestId}' was already used in this session; use a new id for every request (duplicate_request_id)`,
  });
}

function internalError(operation: string, error: unknown): TypedError {
  return {
    code: "internal_error",
    message: `pi-background-tasks failed to handle '${operation}': ${error instanceof Error ? error.message : String(error)} (internal_error)`,
  };
}

/**
 * Registers the EventBus API on `pi.events`. Call after the runtime's own session hooks. With a lifecycle the
 * session's runtime is built by the first request that needs it, and terminal frames follow it from then on.
 */
export function registerEventBusApi(
  pi: ExtensionAPI,
  runtime: RuntimeAccess,
  lifecycle?: RuntimeLifecycle,
): EventBusApi {
  const api = new EventBusApi(pi.events, runtime, undefined, lifecycle);
  lifecycle?.onBuilt((built) => api.attach(built));
  api.listen();
  pi.on("session_start", async () => api.open());
  pi.on("session_shutdown", async () => api.close());
  return api;
}
