import { describe, expect, it } from "vitest";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import type { DelegateResultView } from "../../delegate/service/index.ts";
import { callToolSpec } from "../../shared/service/host-tool-spec.ts";
import { err, ok } from "../../shared/model/result.ts";
import type { TaskSnapshot } from "../../tasks/model/task-snapshot.ts";
import { bgResultToolSpec, type DelegateResults, type ResultView } from "./bg-result-spec.ts";
import { readTaskResult } from "./read-task-result.ts";

const base: TaskSnapshot = {
  schema_version: "pi-background-tasks.task.v1",
  id: "b1",
  name: "n",
  command: "c",
  status: "completed",
  outputPath: "o",
  cwd: "/",
  startTime: 0,
  bytesWritten: 0,
  output: { producedBytes: 0, keptBytes: 0, elidedBytes: 0, capBytes: 1, capAction: "kill" },
  isAgent: false,
  notified: false,
  notifyOnCompletion: true,
  triggerOnCompletion: true,
};

function runtimeOf(tasks: readonly TaskSnapshot[]) {
  return {
    find: (query: string) => {
      const task = tasks.find((t) => t.id === query);
      return task === undefined ? err({ code: "task_unknown" as const, message: `no task ${query}` }) : ok(task);
    },
  };
}

const delegateView = { answer: { text: "delegate answer" } } as unknown as DelegateResultView;
function delegatesOwning(id: string, seen: string[]): DelegateResults {
  return {
    owns: (taskId) => taskId === id,
    result: async (taskId, delivery) => (seen.push(`${taskId}:${delivery ?? "default"}`), ok(delegateView)),
  };
}

const fusionFacts = {
  runId: "v0123456789abcdef0123456789abcdef",
  workflow: "validate" as const,
  artifactDir: "/p/.pi/fusion/s-1/v0123456789abcdef0123456789abcdef",
};

describe("readTaskResult (bg_result on every host)", () => {
  const files = new InMemoryFileCommitter();

  it("routes a delegate's task to its owner with the requested delivery", async () => {
    const seen: string[] = [];
    const runtime = runtimeOf([{ ...base, id: "d1" }]);
    const read = await readTaskResult(
      { files, runtime, delegates: delegatesOwning("d1", seen) },
      { taskId: "d1", delivery: "artifact" },
    );
    expect(read.ok && read.value).toBe(delegateView);
    expect(seen).toEqual(["d1:artifact"]);
  });

  it("refuses an ordinary task (result_unavailable), also on a host without delegates", async () => {
    const read = await readTaskResult({ files, runtime: runtimeOf([base]) }, { taskId: "b1" });
    expect(read.ok ? "" : read.error.code).toBe("result_unavailable");
    expect(read.ok ? "" : read.error.message).toContain("bg_logs");
  });

  it("answers not-ready for a running Fusion task, unavailable for a killed one, and task_unknown for an unknown id", async () => {
    const runtime = runtimeOf([
      { ...base, id: "v1", status: "running", fusion: fusionFacts },
      { ...base, id: "v2", status: "killed", killKind: "user", error: "stopped by the user", fusion: fusionFacts },
    ]);
    const running = await readTaskResult({ files, runtime }, { taskId: "v1" });
    expect(running.ok && running.value).toMatchObject({ state: "running", code: "result_not_ready" });
    const killed = await readTaskResult({ files, runtime }, { taskId: "v2" });
    expect(killed.ok && killed.value).toMatchObject({
      state: "cancelled",
      error: { code: "run_cancelled", message: "stopped by the user" },
    });
    const unknown = await readTaskResult({ files, runtime }, { taskId: "v-nope" });
    expect(unknown.ok ? "" : unknown.error.code).toBe("task_unknown");
  });
});

describe("bgResultToolSpec", () => {
  const spec = (view: ResultView) => bgResultToolSpec("notification_and_wait", async () => ok(view));

  it("answers with the verified answer text when there is one, the whole view otherwise", async () => {
    const withAnswer = await callToolSpec(spec(delegateView), { taskId: "d1" }, {});
    expect(withAnswer.ok && withAnswer.value.text).toBe("delegate answer");
    const running = { state: "running", code: "result_not_ready" } as unknown as ResultView;
    const without = await callToolSpec(spec(running), { taskId: "v1" }, {});
    expect(without.ok && JSON.parse(without.value.text)).toEqual(running);
  });

  it("carries the run's usage on the reply only with the retrieval that claimed it", async () => {
    const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.01 } };
    const claimed = { answer: { text: "report" }, usage, usage_attached: true } as unknown as ResultView;
    const first = await callToolSpec(spec(claimed), { taskId: "v1" }, {});
    expect(first.ok && first.value.usage).toEqual(usage);
    const later = { ...claimed, usage_attached: false } as unknown as ResultView;
    const second = await callToolSpec(spec(later), { taskId: "v1" }, {});
    expect(second.ok && "usage" in second.value).toBe(false);
    const unavailable = { ...claimed, usage: "unavailable" } as unknown as ResultView;
    const none = await callToolSpec(spec(unavailable), { taskId: "v1" }, {});
    expect(none.ok && "usage" in none.value).toBe(false);
  });

  it("refuses bad arguments before reading anything", async () => {
    let reads = 0;
    const counting = bgResultToolSpec("agent_turn", async () => (reads++, ok(delegateView)));
    const refused = await callToolSpec(counting, { taskId: "  " }, {});
    expect(refused.ok ? "" : refused.error.code).toBe("invalid_arguments");
    expect(reads).toBe(0);
  });

  it("is worded for the host: a notification that wakes the agent on Pi, bg_wait on MCP", () => {
    expect(bgResultToolSpec("agent_turn", async () => ok(delegateView)).description).toContain(
      "once its completion notification arrived",
    );
    const mcp = bgResultToolSpec("notification_and_wait", async () => ok(delegateView));
    expect(mcp.description).toContain("bg_wait");
    expect(mcp.description).not.toContain("bg_delegate");
  });
});
