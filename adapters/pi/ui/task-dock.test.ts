import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, it } from "vitest";
import { err, ok, type Result, type TypedError } from "../../../domain/shared/model/result.ts";
import type { TaskSnapshot, TaskStatus } from "../../../domain/tasks/model/task-snapshot.ts";
import { NOT_REPORTED } from "../../../domain/tasks/model/telemetry-text.ts";
import { SeenTasks } from "./seen-tasks.ts";
import { DETAIL_HELP, type DockHost, LIST_HELP, TaskDock } from "./task-dock.ts";
import { PLAIN_THEME, type UiTheme } from "./ui-theme.ts";

const KEY = {
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  enter: "\r",
  escape: "\x1b",
  home: "\x1b[H",
  end: "\x1b[F",
  backspace: "\x7f",
};

/** Colours like a real theme does, so width checks see escape sequences. */
const ANSI_THEME: UiTheme = {
  fg: (_c, text) => `\x1b[38;5;75m${text}\x1b[39m`,
  bold: (text) => `\x1b[1m${text}\x1b[22m`,
};
const strip = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

let clock = 1_000_000;
function task(id: string, status: TaskStatus, extra: Partial<TaskSnapshot> = {}): TaskSnapshot {
  return {
    schema_version: "pi-background-tasks.task.v1",
    id,
    name: `task ${id}`,
    command: `run ${id}`,
    status,
    outputPath: `.pi/tasks/s-1/${id}.output`,
    cwd: "/w",
    startTime: clock - 5000,
    ...(status === "running" ? { pid: 4242 } : { endTime: clock - 1000, exitCode: status === "failed" ? 3 : 0 }),
    bytesWritten: 10,
    output: { producedBytes: 10, keptBytes: 10, elidedBytes: 0, capBytes: 1 << 20, capAction: "keep_head_and_tail" },
    isAgent: false,
    notified: false,
    notifyOnCompletion: true,
    triggerOnCompletion: true,
    ...extra,
  };
}

class Harness {
  tasks: TaskSnapshot[];
  readonly seen = new SeenTasks();
  readonly stopped: string[] = [];
  readonly reran: string[] = [];
  readonly tailReads: string[] = [];
  tails = new Map<string, string[]>();
  closed = 0;
  renders = 0;
  rows = 40;
  private ticks: Array<() => void> = [];
  private listeners: Array<() => void> = [];
  readonly dock: TaskDock;

  constructor(
    tasks: TaskSnapshot[],
    options: { initial?: string; theme?: UiTheme; seenBefore?: boolean; tails?: Record<string, string[]> } = {},
  ) {
    this.tasks = tasks;
    for (const [id, lines] of Object.entries(options.tails ?? {})) this.tails.set(id, lines);
    if (options.seenBefore === true) this.seen.markFinished(tasks);
    const host: DockHost = {
      list: () => this.tasks,
      readTail: async (id) => {
        this.tailReads.push(id);
        const lines = this.tails.get(id);
        return lines === undefined
          ? err({ code: "output_unreadable", message: `no output file for ${id}` })
          : ok([...lines]);
      },
      stop: async (id): Promise<Result<TaskSnapshot, TypedError>> => {
        this.stopped.push(id);
        this.tasks = this.tasks.map((t) => (t.id === id ? { ...t, status: "killed", endTime: clock } : t));
        this.changed();
        return ok(this.find(id));
      },
      rerun: async (t) => {
        this.reran.push(t.id);
        const copy = task(`${t.id}r`, "running", { name: t.name, command: t.command });
        this.tasks = [copy, ...this.tasks];
        return ok(copy);
      },
      seen: this.seen,
      now: () => clock,
      subscribe: (listener) => {
        this.listeners.push(listener);
        return () => (this.listeners = this.listeners.filter((l) => l !== listener));
      },
      every: (_ms, tick) => {
        this.ticks.push(tick);
        return () => (this.ticks = this.ticks.filter((t) => t !== tick));
      },
    };
    this.dock = new TaskDock(
      host,
      options.theme ?? PLAIN_THEME,
      { requestRender: () => this.renders++, rows: () => this.rows },
      () => this.closed++,
      options.initial,
    );
  }

  find(id: string): TaskSnapshot {
    const found = this.tasks.find((t) => t.id === id);
    if (found === undefined) throw new Error(`no task ${id}`);
    return found;
  }
  changed(): void {
    for (const l of this.listeners) l();
  }
  tick(): void {
    for (const t of this.ticks) t();
  }
  get activeTimers(): number {
    return this.ticks.length + this.listeners.length;
  }
  async press(...keys: string[]): Promise<void> {
    for (const k of keys) this.dock.handleInput(k);
    await new Promise((r) => setImmediate(r));
  }
  screen(width = 100): string {
    return this.dock.render(width).map(strip).join("\n");
  }
  selectedRow(width = 100): string {
    return (
      this.dock
        .render(width)
        .map(strip)
        .find((l) => l.startsWith("│ ›")) ?? ""
    );
  }
}

describe("task dock rendering", () => {
  const hostile = [
    task("b00000001", "running", {
      name: "ビルドとテスト 🚀 全部 e\u0301 ok",
      command: `npm test -- ${"--very-long-flag ".repeat(800)}`,
    }),
    task("b00000002", "failed", {
      name: "bad \x1b[31mred\x1b[0m\nname\ttab",
      error: `boom ${"x".repeat(500)}`,
      command: "exit 3",
    }),
    task("b00000003", "completed", { name: "x".repeat(80) }),
    ...Array.from({ length: 20 }, (_, i) => task(`b1${String(i).padStart(7, "0")}`, "running")),
  ];

  for (const width of [40, 80, 120]) {
    it(`every line is exactly ${width} columns in the list and detail views, with unicode names and huge commands`, async () => {
      const h = new Harness(hostile, { theme: ANSI_THEME });
      h.tails.set("b00000001", [
        "plain",
        "\x1b[2Jcolour \x1b[32mgreen\x1b[0m",
        "wide 漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字",
        "z".repeat(5000),
      ]);
      const views: string[][] = [h.dock.render(width)];
      await h.press(KEY.enter);
      views.push(h.dock.render(width));
      await h.press(KEY.up, KEY.escape, KEY.down, KEY.enter);
      views.push(h.dock.render(width));
      await h.press(KEY.left, "a");
      views.push(h.dock.render(width));
      for (const lines of views) {
        expect(lines.length).toBeLessThanOrEqual(Math.floor(h.rows * 0.6));
        for (const line of lines) {
          expect(visibleWidth(line)).toBe(width);
          expect(strip(line)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
        }
      }
    });
  }

  it("stays inside 60% of a short terminal", () => {
    const h = new Harness([task("b1", "running")], {
      initial: "b1",
      tails: { b1: Array.from({ length: 100 }, (_, i) => `line ${i}`) },
    });
    for (const rows of [6, 12, 20, 30]) {
      h.rows = rows;
      const lines = h.dock.render(80);
      expect(lines.length).toBeLessThanOrEqual(Math.max(3, Math.floor(rows * 0.6)));
      expect(lines.at(-1)).toMatch(/^╰─+╯$/);
    }
  });

  it("the help line is shown in each view", async () => {
    const h = new Harness([task("b1", "running")]);
    expect(h.screen(400)).toContain(LIST_HELP);
    await h.press(KEY.enter);
    expect(h.screen(400)).toContain(DETAIL_HELP);
  });

  it("a task without telemetry reads 'not reported', and the detail shows identity, status, exit, output, command and error", async () => {
    const h = new Harness([task("b2", "failed", { error: "Exited with code 3", command: "make all" })], {
      initial: "b2",
      tails: { b2: ["compiling", "error: nope"] },
    });
    await h.press();
    const screen = h.screen(120);
    expect(screen).toContain("task b2 (b2)");
    expect(screen).toMatch(/Status\s+failed · shell · 4s · exit 3/);
    expect(screen).toContain(".pi/tasks/s-1/b2.output (10 bytes)");
    expect(screen).toMatch(new RegExp(`Model\\s+${NOT_REPORTED}`));
    expect(screen).toMatch(new RegExp(`Context\\s+${NOT_REPORTED}`));
    expect(screen).toMatch(new RegExp(`Tokens\\s+${NOT_REPORTED}`));
    expect(screen).toMatch(new RegExp(`Tools\\s+${NOT_REPORTED}`));
    expect(screen).toMatch(/Command\s+make all/);
    expect(screen).toMatch(/Error\s+Exited with code 3/);
    expect(screen).toContain("error: nope");
  });
});

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

describe("tasks that disappear", () => {
  it("a detail whose task was pruned falls back to the list and says why", async () => {
    const h = new Harness([task("b1", "completed"), task("b2", "running")], { initial: "b1", tails: { b1: [] } });
    await h.press();
    h.tasks = h.tasks.filter((t) => t.id !== "b1");
    h.changed();
    expect(h.screen(400)).toContain(LIST_HELP);
    expect(h.screen(400)).toContain("Task b1 is no longer retained in this session.");
  });
});
