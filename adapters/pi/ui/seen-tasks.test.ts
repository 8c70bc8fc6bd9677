import { describe, expect, it } from "vitest";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { SeenTasks } from "./seen-tasks.ts";

const task = (id: string, status: TaskSnapshot["status"]) => ({ id, status }) as TaskSnapshot;

describe("SeenTasks", () => {
  it("marks only finished tasks, counts what /bg-clear newly cleared, and announces changes", () => {
    const seen = new SeenTasks();
    let changes = 0;
    seen.onChange(() => changes++);
    seen.markSeen(task("r", "running"));
    expect(seen.isSeen("r")).toBe(false);
    seen.markSeen(task("a", "completed"));
    seen.markSeen(task("a", "completed"));
    expect(changes).toBe(1);
    expect(
      seen.markFinished([task("a", "completed"), task("b", "failed"), task("c", "killed"), task("r", "running")]),
    ).toBe(2);
    expect(seen.markFinished([task("b", "failed")])).toBe(0);
    expect(changes).toBe(2);
    expect(["a", "b", "c", "r"].map((id) => seen.isSeen(id))).toEqual([true, true, true, false]);
  });
});
