import { describe, expect, it } from "vitest";
import type { CallToolResult, Task } from "@modelcontextprotocol/sdk/types.js";
import { InProcessTaskRuns } from "./in-process-task-runs.ts";

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });

function deferred() {
  let resolve: (r: CallToolResult) => void = () => undefined;
  const promise = new Promise<CallToolResult>((r) => (resolve = r));
  return { promise, resolve };
}

describe("in-process task runs (a task-augmented fusion_brainstorm)", () => {
  it("works until the run ends, then keeps its result and reports the end once", async () => {
    const ended: Task[] = [];
    const runs = new InProcessTaskRuns((t) => ended.push(t));
    const work = deferred();
    const task = runs.start(() => work.promise);
    expect(runs.get(task.taskId)?.status).toBe("working");
    expect(runs.result(task.taskId)).toBeUndefined();
    work.resolve(text("merged answer"));
    await expect.poll(() => runs.get(task.taskId)?.status).toBe("completed");
    expect(runs.result(task.taskId)).toEqual(text("merged answer"));
    expect(ended.map((t) => [t.taskId, t.status])).toEqual([[task.taskId, "completed"]]);
  });

  it("a tool error ends it as failed, with the error's text as the status message", async () => {
    const runs = new InProcessTaskRuns(() => undefined);
    const task = runs.start(async () => ({ isError: true, content: [{ type: "text", text: "no models" }] }));
    await expect.poll(() => runs.get(task.taskId)?.status).toBe("failed");
    expect(runs.get(task.taskId)?.statusMessage).toBe("no models");
  });

  it("cancel aborts the run's signal and ends it as cancelled; a late result changes nothing", async () => {
    const ended: Task[] = [];
    const runs = new InProcessTaskRuns((t) => ended.push(t));
    const work = deferred();
    let signal: AbortSignal | undefined;
    const task = runs.start((s) => {
      signal = s;
      return work.promise;
    });
    expect(runs.cancel(task.taskId)).toBe(true);
    expect(signal?.aborted).toBe(true);
    work.resolve(text("too late"));
    await new Promise((r) => setTimeout(r, 0));
    expect(runs.get(task.taskId)?.status).toBe("cancelled");
    expect(runs.result(task.taskId)?.isError).toBe(true);
    expect(ended).toHaveLength(1);
    expect(runs.cancel("b0000")).toBe(false); // not one of these runs: the runtime's to kill
  });
});
