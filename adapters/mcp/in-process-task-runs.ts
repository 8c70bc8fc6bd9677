import { randomBytes } from "node:crypto";
import type { CallToolResult, Task } from "@modelcontextprotocol/sdk/types.js";
import { TASK_POLL_INTERVAL_MS } from "./mcp-task-status.ts";

/** Finished runs kept for tasks/result; older ones are forgotten. */
const KEEP_FINISHED = 20;

interface Run {
  task: Task;
  readonly controller: AbortController;
  result?: CallToolResult;
}

/**
 * Task-augmented calls of a blocking tool (fusion_brainstorm), run in the background of the server process.
 * Their status and result live in this process's memory only: a server that ends loses them (the run's
 * artifact directory stays on disk), unlike bg_run and fusion_validate tasks, which are the durable runtime's.
 */
export class InProcessTaskRuns {
  private readonly runs = new Map<string, Run>();

  constructor(
    private readonly onEnd: (task: Task) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts `work` with a signal that tasks/cancel aborts; a tool error ends the task as failed. */
  start(work: (signal: AbortSignal) => Promise<CallToolResult>): Task {
    const at = new Date(this.now()).toISOString();
    const taskId = this.newId();
    const run: Run = {
      task: {
        taskId,
        status: "working",
        ttl: null,
        createdAt: at,
        lastUpdatedAt: at,
        pollInterval: TASK_POLL_INTERVAL_MS,
      },
      controller: new AbortController(),
    };
    this.runs.set(taskId, run);
    work(run.controller.signal).then(
      (result) => this.end(run, result.isError === true ? "failed" : "completed", result),
      (cause: unknown) =>
        this.end(
          run,
          "failed",
          errorResult(`the run failed: ${cause instanceof Error ? cause.message : String(cause)}`),
        ),
    );
    return run.task;
  }

  get(taskId: string): Task | undefined {
    return this.runs.get(taskId)?.task;
  }

  /** The result of a finished run; undefined while it works or when the id is not one of these runs. */
  result(taskId: string): CallToolResult | undefined {
    return this.runs.get(taskId)?.result;
  }

  /** Aborts a working run; false when the id is not one of these runs. */
  cancel(taskId: string): boolean {
    const run = this.runs.get(taskId);
    if (run === undefined) return false;
    run.controller.abort();
    this.end(run, "cancelled", errorResult("cancelled by the client (tasks/cancel); its children were stopped"));
    return true;
  }

  list(): Task[] {
    return [...this.runs.values()].map((r) => r.task);
  }

  private end(run: Run, status: "completed" | "failed" | "cancelled", result: CallToolResult): void {
    if (run.task.status !== "working") return;
    const statusMessage = status === "completed" ? undefined : firstText(result);
    run.task = {
      ...run.task,
      status,
      lastUpdatedAt: new Date(this.now()).toISOString(),
      ...(statusMessage === undefined ? {} : { statusMessage }),
    };
    run.result = result;
    this.forgetOldest();
    this.onEnd(run.task);
  }

  private forgetOldest(): void {
    const finished = [...this.runs.values()].filter((r) => r.result !== undefined);
    for (const old of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED)))
      this.runs.delete(old.task.taskId);
  }

  private newId(): string {
    for (;;) {
      const id = `m${randomBytes(4).toString("hex")}`;
      if (!this.runs.has(id)) return id;
    }
  }
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

function firstText(result: CallToolResult): string | undefined {
  const first = result.content[0];
  return first?.type === "text" ? first.text.slice(0, 500) : undefined;
}
