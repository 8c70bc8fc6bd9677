import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { ErrorCode, McpError, type CallToolResult, type Task } from "@modelcontextprotocol/sdk/types.js";
import { callToolSpec, type AnyHostToolSpec } from "../../domain/shared/service/host-tool-spec.ts";
import { isTerminal, type TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import type { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";
import type { InProcessTaskRuns } from "./in-process-task-runs.ts";
import { mcpTaskOf } from "./mcp-task-status.ts";
import { callToolResult } from "./mcp-tool-server.ts";

export interface RuntimeTaskStoreDeps {
  readonly runtime: Pick<TaskRuntime, "list" | "kill" | "subscribe">;
  /** The served tools by name: a finished task's result is what bg_wait (bg_result for a review) answers. */
  readonly specs: ReadonlyMap<string, AnyHostToolSpec>;
  readonly runs: InProcessTaskRuns;
}

/**
 * The SDK's task store over the durable task runtime: an MCP task id is the package's task id, tasks/cancel is
 * bg_kill, tasks/list is every task of this runtime (tasks belong to the server, not to a session, as for the
 * bg_* tools), plus the in-process runs of fusion_brainstorm. Tasks are never created through the store: the
 * tools start them (mcp-task-calls.ts).
 */
export class RuntimeTaskStore implements TaskStore {
  constructor(private readonly deps: RuntimeTaskStoreDeps) {}

  /** Calls `listener` once with each task of the runtime that ends (the in-process runs report their own). */
  onEnd(listener: (task: Task) => void): () => void {
    const announced = new Set<string>();
    return this.deps.runtime.subscribe((snapshot) => {
      if (!isTerminal(snapshot.status) || announced.has(snapshot.id)) return;
      announced.add(snapshot.id);
      // Forget what the runtime pruned: the set stays as small as the runtime's own registry.
      const known = new Set(this.deps.runtime.list().map((t) => t.id));
      for (const id of announced) if (!known.has(id)) announced.delete(id);
      listener(mcpTaskOf(snapshot));
    });
  }

  async createTask(): Promise<Task> {
    throw new Error("MCP tasks are created by the tools that start them, not by the task store");
  }

  async storeTaskResult(): Promise<void> {
    throw new Error("a task's result is read from the runtime, never stored through the task store");
  }

  async getTask(taskId: string): Promise<Task | null> {
    const run = this.deps.runs.get(taskId);
    if (run !== undefined) return run;
    const snapshot = this.snapshot(taskId);
    return snapshot === undefined ? null : mcpTaskOf(snapshot);
  }

  async getTaskResult(taskId: string): Promise<CallToolResult> {
    const kept = this.deps.runs.result(taskId);
    if (kept !== undefined) return kept;
    const snapshot = this.snapshot(taskId);
    if (snapshot === undefined) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    // A review's result is its verified report; any other task's is its final state and last output lines.
    const tool = snapshot.fusion?.workflow === "validate" ? "bg_result" : "bg_wait";
    return callToolResult(await callToolSpec(this.spec(tool), { taskId: snapshot.id }, {}));
  }

  async updateTaskStatus(taskId: string, status: Task["status"]): Promise<void> {
    if (status !== "cancelled")
      throw new McpError(ErrorCode.InvalidParams, `a task's status is the runtime's; only cancelling is asked for`);
    if (this.deps.runs.cancel(taskId)) return;
    const killed = await this.deps.runtime.kill(taskId);
    if (!killed.ok) throw new McpError(ErrorCode.InvalidParams, killed.error.message);
  }

  async listTasks(): Promise<{ tasks: Task[] }> {
    return { tasks: [...this.deps.runs.list(), ...this.deps.runtime.list().map(mcpTaskOf)] };
  }

  /** The task with exactly this id (the bg_* tools also take a prefix; a task id from MCP never is one). */
  private snapshot(taskId: string): TaskSnapshot | undefined {
    return this.deps.runtime.list().find((t) => t.id === taskId);
  }

  private spec(name: string): AnyHostToolSpec {
    const spec = this.deps.specs.get(name);
    if (spec === undefined) throw new Error(`the task store needs ${name}, which this server does not serve`);
    return spec;
  }
}
