import { describe, expect, it } from "vitest";
import { countTasks, footerSummary } from "./footer-summary.ts";
import type { TaskStatus } from "./task-snapshot.ts";
import { taskSnapshot } from "./task-snapshot.test-support.ts";

const task = (id: string, status: TaskStatus, startTime = 0) => taskSnapshot(id, status, { startTime });

const text = (parts: { text: string }[] | undefined) => parts?.map((p) => p.text).join(" | ");
const nobodySeen = () => false;

describe("footerSummary", () => {
  it("is undefined when nothing runs and every finished task was seen", () => {
    expect(footerSummary([], { now: 0, isSeen: nobodySeen, dockOpen: false, shortcutLabel: "Shift↓" })).toBeUndefined();
    const seen = new Set(["a", "b"]);
    expect(
      footerSummary([task("a", "completed"), task("b", "failed")], {
        now: 0,
        isSeen: (id) => seen.has(id),
        dockOpen: false,
        shortcutLabel: "Shift↓",
      }),
    ).toBeUndefined();
  });

  it("counts running tasks and unseen finished ones by outcome, then the entry hint", () => {
    const tasks = [
      task("r1", "running", 1000),
      task("r2", "running"),
      task("f", "failed"),
      task("k", "killed"),
      task("c1", "completed"),
      task("c2", "completed"),
    ];
    expect(
      text(footerSummary(tasks, { now: 5000, isSeen: nobodySeen, dockOpen: false, shortcutLabel: "Shift↓" })),
    ).toBe("2 running | 1 failed | 1 stopped | 2 done | Shift↓ · /bg-clear");
    expect(countTasks(tasks, (id) => id === "c1")).toEqual({ running: 2, failed: 1, stopped: 1, done: 1 });
  });

  it("shows the age of a single running task, and no /bg-clear hint without unseen finished tasks", () => {
    expect(
      text(
        footerSummary([task("r", "running", 1000)], {
          now: 66_000,
          isSeen: nobodySeen,
          dockOpen: false,
          shortcutLabel: "Ctrl+Alt+B",
        }),
      ),
    ).toBe("1 running 1m05s | Ctrl+Alt+B");
  });

  it("says 'focused' while the dock is open and names /tasks when the shortcut is off", () => {
    const tasks = [task("c", "completed")];
    expect(text(footerSummary(tasks, { now: 0, isSeen: nobodySeen, dockOpen: true, shortcutLabel: "Shift↓" }))).toBe(
      "1 done | focused",
    );
    expect(text(footerSummary(tasks, { now: 0, isSeen: nobodySeen, dockOpen: false, shortcutLabel: undefined }))).toBe(
      "1 done | /tasks · /bg-clear",
    );
  });

  it("seen running tasks still count as running", () => {
    expect(
      text(
        footerSummary([task("r", "running", 0)], {
          now: 0,
          isSeen: () => true,
          dockOpen: false,
          shortcutLabel: "Shift↓",
        }),
      ),
    ).toBe("1 running 0s | Shift↓");
  });
});
