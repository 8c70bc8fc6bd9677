import { describe, expect, it } from "vitest";
import { TaskSchema } from "@modelcontextprotocol/sdk/types.js";
import { taskSnapshot } from "../../domain/tasks/model/task-snapshot.test-support.ts";
import { mcpTaskOf, mcpTaskStatus } from "./mcp-task-status.ts";

describe("a package task as an MCP task", () => {
  it("maps running to working, completed and failed as they are, killed to cancelled", () => {
    expect(mcpTaskStatus("running")).toBe("working");
    expect(mcpTaskStatus("completed")).toBe("completed");
    expect(mcpTaskStatus("failed")).toBe("failed");
    expect(mcpTaskStatus("killed")).toBe("cancelled");
  });

  it("a timed-out task is failed (the runtime records a timeout as failed, not killed)", () => {
    const timedOut = taskSnapshot("b0001", "failed", { killKind: "timeout", error: "Timed out after 1 s" });
    expect(mcpTaskOf(timedOut)).toMatchObject({ status: "failed", statusMessage: "Timed out after 1 s" });
  });

  it("keeps the package's task id and its times, and passes the SDK's own Task schema", () => {
    const ended = taskSnapshot("b1234", "completed", { startTime: 1_000, endTime: 61_000 });
    const task = mcpTaskOf(ended);
    expect(TaskSchema.parse(task)).toEqual(task);
    expect(task).toMatchObject({
      taskId: "b1234",
      createdAt: new Date(1_000).toISOString(),
      lastUpdatedAt: new Date(61_000).toISOString(),
      ttl: null,
    });
    expect(task.statusMessage).toBeUndefined();
  });
});
