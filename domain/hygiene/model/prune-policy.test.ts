import { describe, expect, it } from "vitest";
import { taskSnapshot } from "../../tasks/model/task-snapshot.test-support.ts";
import { newestRecordedTime, ownerPidOf, pruneLogLine, taskKeeps } from "./prune-policy.ts";

describe("prune policy", () => {
  it("reads the owner pid only from names the package gives (<session>-<pid>, mcp-<pid>)", () => {
    expect(ownerPidOf("sess_1-4242")).toBe(4242);
    expect(ownerPidOf("mcp-7")).toBe(7);
    for (const name of [
      "launches",
      ".gitignore",
      "prune-log.jsonl",
      ".hidden-12",
      "-12",
      "a-0",
      "a-12345678901",
      "a/b-1",
    ])
      expect(ownerPidOf(name), name).toBeUndefined();
  });

  it("ages a task by the newest time it records: start, end, detach or takeover", () => {
    const task = taskSnapshot("t", "completed", { startTime: 1, endTime: 5, detachedAt: 3 });
    expect(newestRecordedTime(task)).toBe(5);
    expect(
      newestRecordedTime({
        ...task,
        recovery: { at: 9, hostEnded: "died", spillPath: "x", spilledBytes: 0, lostOutputBytes: "unavailable" },
      }),
    ).toBe(9);
  });

  it("keeps a running task, a live host's, and a recent one; lets an old finished one go", () => {
    const old = taskSnapshot("t", "completed", { startTime: 1, endTime: 2 });
    expect(taskKeeps({ ...old, status: "running" }, { hostAlive: false, cutoff: 10 })?.reason).toBe("running_task");
    expect(taskKeeps(old, { hostAlive: true, cutoff: 10 })?.reason).toBe("live_task_owner");
    expect(taskKeeps(old, { hostAlive: false, cutoff: 2 })?.reason).toBe("recent_task");
    expect(taskKeeps(old, { hostAlive: false, cutoff: 10 })).toBeUndefined();
  });

  it("writes one schema-tagged JSON line per record", () => {
    expect(pruneLogLine({ kind: "deferred", area: "fusion", count: 2 }, 0)).toBe(
      '{"schema_version":"pi-background-tasks.prune-record.v1","at":"1970-01-01T00:00:00.000Z","kind":"deferred","area":"fusion","count":2}\n',
    );
  });
});
