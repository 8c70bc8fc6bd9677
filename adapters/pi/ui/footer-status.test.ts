import { truncateToWidth, visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, it } from "vitest";
import type { TaskSnapshot, TaskStatus } from "../../../domain/tasks/model/task-snapshot.ts";
import { type FooterHost, FooterStatus } from "./footer-status.ts";
import { SeenTasks } from "./seen-tasks.ts";
import type { UiTheme } from "./ui-theme.ts";

const ANSI_THEME: UiTheme = { fg: (_c, text) => `\x1b[36m${text}\x1b[39m`, bold: (text) => `\x1b[1m${text}\x1b[22m` };
const strip = (s: string | undefined) => s?.replace(/\x1b\[[0-9;]*m/g, "");

function task(id: string, status: TaskStatus, name = `task ${id}`): TaskSnapshot {
  return { id, name, status, startTime: 0, ...(status === "running" ? {} : { endTime: 1000 }) } as TaskSnapshot;
}

class Fixture {
  tasks: TaskSnapshot[] = [];
  now = 0;
  readonly seen = new SeenTasks();
  readonly statuses: Array<string | undefined> = [];
  tickers = new Set<() => void>();
  listeners = new Set<() => void>();
  readonly footer: FooterStatus;

  constructor(shortcutLabel: string | null = "Shift↓") {
    const host: FooterHost = {
      list: () => this.tasks,
      subscribe: (l) => {
        this.listeners.add(l);
        return () => this.listeners.delete(l);
      },
      seen: this.seen,
      now: () => this.now,
      every: (_ms, tick) => {
        this.tickers.add(tick);
        return () => this.tickers.delete(tick);
      },
      setStatus: (text) => this.statuses.push(text),
      theme: ANSI_THEME,
      shortcutLabel: shortcutLabel ?? undefined,
    };
    this.footer = new FooterStatus(host);
  }
  set(tasks: TaskSnapshot[]): void {
    this.tasks = tasks;
    for (const l of this.listeners) l();
  }
  tick(ms: number): void {
    this.now += ms;
    for (const t of this.tickers) t();
  }
  get last(): string | undefined {
    return strip(this.statuses.at(-1));
  }
}

describe("footer status", () => {
  it("sends nothing and runs no timer while there is nothing to show", () => {
    const f = new Fixture();
    expect(f.statuses).toEqual([]);
    expect(f.tickers.size).toBe(0);
  });

  it("shows running tasks, ticks once a second only while one runs, and clears when all were seen", () => {
    const f = new Fixture();
    f.set([task("b1", "running")]);
    expect(f.last).toBe("bg 1 running 0s · Shift↓");
    expect(f.tickers.size).toBe(1);
    f.tick(1000);
    expect(f.last).toBe("bg 1 running 1s · Shift↓");
    f.tick(0);
    expect(f.statuses.length).toBe(2); // unchanged text is not sent again
    f.set([task("b1", "completed")]);
    expect(f.last).toBe("bg 1 done · Shift↓ · /bg-clear");
    expect(f.tickers.size).toBe(0);
    f.seen.markFinished(f.tasks);
    expect(f.statuses.at(-1)).toBeUndefined();
  });

  it("counts failed and stopped tasks, says 'focused' while the dock is open, and names /tasks without a shortcut", () => {
    const f = new Fixture(null);
    f.set([task("a", "failed"), task("b", "killed"), task("c", "running"), task("d", "running")]);
    expect(f.last).toBe("bg 2 running · 1 failed · 1 stopped · /tasks · /bg-clear");
    f.footer.setDockOpen(true);
    expect(f.last).toBe("bg 2 running · 1 failed · 1 stopped · focused");
  });

  it("dispose stops listening and ticking and clears the status", () => {
    const f = new Fixture();
    f.set([task("b1", "running")]);
    f.footer.dispose();
    expect(f.statuses.at(-1)).toBeUndefined();
    expect(f.tickers.size).toBe(0);
    expect(f.listeners.size).toBe(0);
    f.footer.setDockOpen(true);
    f.seen.markFinished([task("x", "completed")]);
    expect(f.statuses.at(-1)).toBeUndefined();
  });

  for (const width of [40, 80, 120]) {
    it(`at ${width} columns Pi's truncation keeps the counts first and no line is wider`, () => {
      const f = new Fixture();
      f.set([task("b1", "running", "ビルド 🚀 ".repeat(30)), task("b2", "failed"), task("b3", "completed")]);
      const status = f.statuses.at(-1) ?? "";
      // Pi joins statuses on one line and cuts it with truncateToWidth (footer.js).
      const line = truncateToWidth(status, width, "...");
      expect(visibleWidth(line)).toBeLessThanOrEqual(width);
      expect(strip(line)).toMatch(/^bg 1 running 0s · 1 failed/);
      expect(strip(status)).not.toContain("ビルド");
    });
  }
});
