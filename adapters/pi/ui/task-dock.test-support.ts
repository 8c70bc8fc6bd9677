import { err, ok, type Result, type TypedError } from "../../../domain/shared/model/result.ts";
import type { TaskSnapshot, TaskStatus } from "../../../domain/tasks/model/task-snapshot.ts";
import type { DockHost } from "./dock-host.ts";
import { SeenTasks } from "./seen-tasks.ts";
import { TaskDock } from "./task-dock.ts";
import { PLAIN_THEME, type UiTheme } from "./ui-theme.ts";

// Shared by the task dock tests: key codes, a colouring theme, task snapshots and a dock driven through a fake host.

export const KEY = {
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
export const ANSI_THEME: UiTheme = {
  fg: (_c, text) => `\x1b[38;5;75m${text}\x1b[39m`,
  bold: (text) => `\x1b[1m${text}\x1b[22m`,
};
export const strip = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

export const clock = 1_000_000;
export function task(id: string, status: TaskStatus, extra: Partial<TaskSnapshot> = {}): TaskSnapshot {
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

export class Harness {
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
