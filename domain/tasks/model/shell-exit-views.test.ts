import { describe, expect, it } from "vitest";
import { footerSummary } from "./footer-summary.ts";
import { renderNotification } from "./notification.ts";
import { formatTaskLine, runningAfterShell, treeOutcome } from "./task-list.ts";
import type { TaskSnapshot } from "./task-snapshot.ts";
import { taskSnapshot } from "./task-snapshot.test-support.ts";

const base: TaskSnapshot = taskSnapshot("b1", "running", { name: "serve", command: "serve & echo started" });
const afterShell: TaskSnapshot = {
  ...base,
  shellExit: { code: 0, signal: null, at: 1_000 },
  remaining: [{ pid: 4242, command: "sleep 37", startedAt: 500 }],
};

describe("a task whose shell exited while its processes still run", () => {
  it("bg_status and /jobs say the shell exited and list what still runs, with its age", () => {
    expect(runningAfterShell(afterShell, 5_000)).toBe(
      "shell exited (exit 0) 4s ago, 1 process still running (they are stopped after a grace): pid 4242 sleep 37 (up 4s)",
    );
    expect(formatTaskLine(afterShell, 5_000)).toContain("\n    shell exited (exit 0) 4s ago, 1 process still running");
    expect(runningAfterShell({ ...afterShell, onShellExit: "wait" }, 5_000)).toContain(
      "the task ends when the last one does",
    );
  });

  it("says nothing extra for a task whose shell is still running or that left nothing behind", () => {
    expect(runningAfterShell(base, 5_000)).toBeUndefined();
    expect(treeOutcome({ ...base, status: "completed", exitCode: 0, endTime: 9 })).toBeUndefined();
    expect(formatTaskLine(base, 5_000)).not.toContain("shell exited");
  });

  it("the footer marks it", () => {
    const parts = footerSummary([afterShell], { now: 5_000, isSeen: () => false, dockOpen: false, shortcutLabel: "x" });
    expect(parts?.[0]?.text).toBe("1 running 5s (shell exited)");
  });

  it("the notice says what the processes that outlived the shell did: stopped, ended by themselves, or both", () => {
    const ended = { ...afterShell, status: "completed" as const, exitCode: 0, endTime: 3_500, remaining: undefined };
    const stopped = { ...ended, descendants: 2, strays: 2, endTime: 6_000 };
    const mixed = { ...ended, descendants: 3, strays: 1 };
    expect(treeOutcome({ ...ended, descendants: 1 })).toBe(
      "the shell exited (exit 0) while 1 process it started still ran: it ended by itself; the task ended 2s after the shell",
    );
    expect(treeOutcome(stopped)).toContain("2 processes it started still ran: all were stopped");
    expect(treeOutcome(mixed)).toContain("2 ended by themselves, 1 was stopped");
    expect(renderNotification({ ...ended, descendants: 1 }, "").content).toContain(
      "<process-tree>the shell exited (exit 0) while 1 process it started still ran: it ended by itself",
    );
  });
});
