import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { ScriptedModelServer, ScriptedReply } from "../../fake/scripted-model-server.ts";
import type { PiRpcClient } from "./rpc-client.ts";

/** The fields of a task snapshot these tests read. */
export interface RpcTask {
  readonly id: string;
  readonly pid: number;
  readonly status: string;
  readonly exitCode?: number;
  readonly error?: string;
  readonly outputPath: string;
  readonly processTag?: string;
  readonly recovery?: { readonly hostEnded: string; readonly spilledBytes: number };
  readonly shellExit?: { readonly code: number | null; readonly signal: string | null };
  readonly remaining?: readonly { readonly pid: number; readonly command: string }[];
  readonly descendants?: number;
  readonly strays?: number;
}

/** A real `pi --mode rpc` whose scripted model calls one tool per prompt. */
export class TaskRpc {
  constructor(
    private readonly server: ScriptedModelServer,
    readonly cwd: string,
  ) {}

  /** Runs one prompt whose model reply calls one tool; returns the tool's result. */
  async callTool(
    pi: PiRpcClient,
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ text: string; isError: boolean; details: Record<string, unknown> }> {
    const reply: ScriptedReply = { toolCalls: [{ name, arguments: args }] };
    this.server.enqueue(reply, { text: "ok" });
    const events = await pi.promptAndWait(`call ${name}`, 30_000);
    const end = events.find((e) => e.type === "tool_execution_end");
    if (end === undefined)
      throw new Error(`no tool ran: ${JSON.stringify(events.map((e) => e.type))}; stderr: ${pi.stderr().slice(-1500)}`);
    const result = end.result as { content: { text: string }[]; details: Record<string, unknown> };
    return { text: result.content.map((c) => c.text).join(""), isError: end.isError === true, details: result.details };
  }

  async bgRun(pi: PiRpcClient, args: Record<string, unknown>): Promise<RpcTask> {
    const result = await this.callTool(pi, "bg_run", { isAgent: false, triggerOnCompletion: false, ...args });
    expect(result.isError, result.text).toBe(false);
    return (result.details as { task: RpcTask }).task;
  }

  async status(pi: PiRpcClient, id: string): Promise<{ task: RpcTask; text: string }> {
    const result = await this.callTool(pi, "bg_status", { taskId: id });
    expect(result.isError, result.text).toBe(false);
    const [task] = (result.details as { tasks: RpcTask[] }).tasks;
    if (task === undefined) throw new Error(`bg_status returned no task for ${id}`);
    return { task, text: result.text };
  }

  metadataOf(task: RpcTask): RpcTask {
    return JSON.parse(readFileSync(join(this.cwd, task.outputPath.replace(/\.output$/, ".json")), "utf8")) as RpcTask;
  }

  tagOf(task: RpcTask): string {
    const tag = this.metadataOf(task).processTag;
    if (tag === undefined) throw new Error(`task ${task.id} has no process tag in its metadata`);
    return tag;
  }
}

/** Live processes whose environment carries the tag (what the package itself uses to find a task's processes). */
export function tagged(tag: string): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return false;
        return readFileSync(`/proc/${pid}/environ`, "latin1")
          .split("\0")
          .some((v) => v.startsWith("PI_BG_PROCESS_TAG=") && v.slice(18).split(":").includes(tag));
      } catch {
        return false;
      }
    })
    .map(Number);
}
