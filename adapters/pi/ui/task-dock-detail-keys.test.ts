import { describe, expect, it } from "vitest";
import { DETAIL_HELP, LIST_HELP } from "./task-dock.ts";
import { clock, Harness, KEY, task } from "./task-dock.test-support.ts";

describe("detail keys do what the help line says, and the tail follows live output", () => {
  const lines = (n: number, prefix = "line") => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
  const open = async (n = 40) => {
    const h = new Harness([task("b1", "running"), task("b2", "running")], { initial: "b1", tails: { b1: lines(n) } });
    await h.press();
    return h;
  };
  const visibleTail = (h: Harness) =>
    h
      .screen()
      .split("\n")
      .filter((l) => /│ line \d+/.test(l))
      .map((l) => l.replace(/[│ ]+$/, "").replace(/^│ /, ""));

  const cases: Record<string, (h: Harness) => Promise<void>> = {
    "↑↓ PgUp/PgDn scroll": async (h) => {
      expect(visibleTail(h).at(-1)).toBe("line 40");
      expect(h.screen()).toContain("Output · live");
      await h.press(KEY.up);
      expect(h.screen()).toContain("paused · lines 28–39 of 40 · r resumes");
      await h.press(KEY.pageUp);
      expect(h.screen()).toContain("lines 16–27 of 40");
      await h.press(KEY.pageDown, KEY.down);
      expect(h.screen()).toContain("Output · live");
    },
    "Home/End": async (h) => {
      await h.press(KEY.home);
      expect(visibleTail(h)[0]).toBe("line 1");
      expect(h.screen()).toContain("lines 1–12 of 40");
      await h.press(KEY.end);
      expect(visibleTail(h).at(-1)).toBe("line 40");
    },
    "r follow": async (h) => {
      await h.press(KEY.up, KEY.up);
      h.tails.set("b1", lines(50));
      h.tick();
      await h.press();
      expect(visibleTail(h).at(-1)).toBe("line 38");
      await h.press("r");
      expect(visibleTail(h).at(-1)).toBe("line 50");
    },
    "k stop": async (h) => {
      await h.press("k");
      expect(h.stopped).toEqual(["b1"]);
      expect(h.screen()).toContain("Stopped task b1 (b1).");
      expect(h.screen()).toMatch(/Status\s+stopped/);
    },
    "R rerun": async (h) => {
      h.tails.set("b1r", ["fresh"]);
      await h.press("R");
      expect(h.reran).toEqual(["b1"]);
      expect(h.screen()).toContain("task b1 (b1r)");
    },
    "c output path": async (h) => {
      await h.press("c");
      expect(h.screen()).toContain("Output: .pi/tasks/s-1/b1.output");
    },
    "←/Esc back": async (h) => {
      for (const key of [KEY.left, KEY.escape, KEY.backspace]) {
        await h.press(key);
        expect(h.screen(400)).toContain(LIST_HELP);
        expect(h.closed).toBe(0);
        await h.press(KEY.enter);
      }
    },
    "x/q close": async (h) => {
      await h.press("q");
      expect(h.closed).toBe(1);
      expect(h.activeTimers).toBe(0);
      const other = await open();
      await other.press("x");
      expect(other.closed).toBe(1);
    },
  };

  it("every action of the help line has a test", () => {
    expect(DETAIL_HELP.split(" · ").sort()).toEqual(Object.keys(cases).sort());
  });

  for (const [action, run] of Object.entries(cases)) {
    it(action, async () => run(await open()));
  }

  it("the tail follows new output each tick, freezes while paused, and resumes at the bottom", async () => {
    const h = await open(5);
    h.tails.set("b1", lines(8));
    h.tick();
    await h.press();
    expect(visibleTail(h).at(-1)).toBe("line 8");
    h.tails.set("b1", lines(30));
    h.tick();
    await h.press();
    await h.press(KEY.up, KEY.up, KEY.up);
    const reads = h.tailReads.length;
    h.tails.set("b1", lines(60));
    h.tick();
    await h.press();
    expect(h.tailReads.length).toBe(reads);
    expect(h.screen()).toContain("lines 16–27 of 30");
    await h.press(KEY.down, KEY.down, KEY.down);
    expect(h.screen()).toContain("Output · live");
    expect(visibleTail(h).at(-1)).toBe("line 60");
  });

  it("opening a finished task marks it seen; a running one is marked once it ends while open", async () => {
    const h = new Harness([task("b1", "running"), task("b3", "failed")], { tails: { b1: [], b3: [] } });
    await h.press(KEY.down, KEY.enter);
    expect(h.seen.isSeen("b3")).toBe(true);
    await h.press(KEY.left, KEY.up, KEY.enter);
    expect(h.seen.isSeen("b1")).toBe(false);
    h.tasks = h.tasks.map((t) => (t.id === "b1" ? { ...t, status: "completed", endTime: clock } : t));
    h.changed();
    expect(h.seen.isSeen("b1")).toBe(true);
    expect(h.screen()).toContain("(no output yet)");
  });

  it("after closing, late results and task changes draw nothing", async () => {
    const h = await open();
    h.dock.handleInput("k");
    h.dock.handleInput("x");
    const renders = h.renders;
    await h.press();
    h.changed();
    expect(h.renders).toBe(renders);
  });
});
