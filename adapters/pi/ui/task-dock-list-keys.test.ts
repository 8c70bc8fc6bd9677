import { describe, expect, it } from "vitest";
import { LIST_HELP } from "./task-dock.ts";
import { Harness, KEY, task } from "./task-dock.test-support.ts";

describe("list keys do what the help line says", () => {
  const five = () => [
    task("b1", "running"),
    task("b2", "running"),
    task("b3", "failed"),
    task("b4", "completed"),
    task("b5", "killed"),
  ];

  const cases: Record<string, (h: Harness) => Promise<void>> = {
    "↑↓ move": async (h) => {
      expect(h.selectedRow()).toContain("b1");
      await h.press(KEY.down, KEY.down);
      expect(h.selectedRow()).toContain("b3");
      await h.press(KEY.up);
      expect(h.selectedRow()).toContain("b2");
    },
    "PgUp/PgDn page": async (h) => {
      h.tasks = Array.from({ length: 40 }, (_, i) => task(`b${String(i).padStart(2, "0")}`, "running"));
      const pageDown = new Harness(h.tasks);
      await pageDown.press(KEY.pageDown);
      expect(pageDown.selectedRow()).toContain("b14");
      expect(pageDown.screen()).toContain("↓ 25 more");
      await pageDown.press(KEY.pageUp);
      expect(pageDown.selectedRow()).toContain("b00");
    },
    "Enter/→ open": async (h) => {
      await h.press(KEY.down, KEY.down, KEY.enter);
      expect(h.screen()).toContain("task b3 (b3)");
      expect(h.seen.isSeen("b3")).toBe(true);
      await h.press(KEY.left, KEY.down, KEY.right);
      expect(h.screen()).toContain("task b4 (b4)");
    },
    "k stop": async (h) => {
      await h.press(KEY.down, "k");
      expect(h.stopped).toEqual(["b2"]);
      expect(h.screen()).toContain("Stopped task b2 (b2).");
      await h.press(KEY.down, "k");
      expect(h.stopped).toEqual(["b2"]);
      expect(h.screen()).toMatch(/is (failed|killed|completed), not running/);
    },
    "a/K stop all": async (h) => {
      await h.press("a");
      expect(h.screen()).toContain("Stop all 2 running tasks? y stops them, any other key cancels.");
      await h.press("n");
      expect(h.stopped).toEqual([]);
      expect(h.screen()).toContain("Nothing was stopped.");
      await h.press("K", "y");
      expect([...h.stopped].sort()).toEqual(["b1", "b2"]);
      expect(h.screen()).toContain("Stopped 2 of 2 tasks.");
    },
    "R rerun": async (h) => {
      await h.press(KEY.down, KEY.down, "R");
      expect(h.reran).toEqual(["b3"]);
      expect(h.screen()).toContain("Started task b3 again as b3r.");
      expect(h.selectedRow()).toContain("b3r");
    },
    "h history": async (h) => {
      // A dock opened after every finished task was seen lists only the running ones until h.
      const h2 = new Harness(h.tasks, { seenBefore: true });
      expect(h2.screen()).not.toContain("b3");
      await h2.press("h");
      expect(h2.screen()).toContain("b3");
      expect(h2.screen()).toContain("history");
      await h2.press("h");
      expect(h2.screen()).not.toContain("b3");
    },
    "c output path": async (h) => {
      await h.press(KEY.down, "c");
      expect(h.screen()).toContain("Output: .pi/tasks/s-1/b2.output");
    },
    "x/Esc/q close": async (h) => {
      await h.press("x");
      expect(h.closed).toBe(1);
      for (const key of [KEY.escape, "q"]) {
        const other = new Harness(five());
        await other.press(key);
        expect(other.closed).toBe(1);
        expect(other.activeTimers).toBe(0);
      }
    },
  };

  it("every action of the help line has a test", () => {
    expect(LIST_HELP.split(" · ").sort()).toEqual(Object.keys(cases).sort());
  });

  for (const [action, run] of Object.entries(cases)) {
    it(action, async () => run(new Harness(five())));
  }
});

describe("R on a task that is not a shell task", () => {
  it("says plainly it cannot be rerun and starts nothing: its command is a label with model-chosen text", async () => {
    const delegate = task("b7", "completed", { command: "bg_delegate: $(touch pwned)", delegate: {} as never });
    const h = new Harness([delegate]);
    await h.press("R");
    expect(h.reran).toEqual([]);
    expect(h.screen()).toContain("b7 was started by bg_delegate, not as a shell command, so it cannot be rerun");
    expect(h.screen()).toContain("nothing was started");
  });
});
