import { footerSummary, type FooterTone } from "../../../domain/tasks/model/footer-summary.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import type { SeenTasks } from "./seen-tasks.ts";
import type { UiColor, UiTheme } from "./ui-theme.ts";

export const FOOTER_STATUS_KEY = "background-tasks";
const REFRESH_MS = 1000;

const TONE_COLOR: Record<FooterTone, UiColor> = {
  running: "accent",
  failed: "error",
  stopped: "warning",
  done: "success",
  hint: "dim",
};

export interface FooterHost {
  list(): readonly TaskSnapshot[];
  subscribe(listener: () => void): () => void;
  readonly seen: SeenTasks;
  now(): number;
  every(ms: number, tick: () => void): () => void;
  setStatus(text: string | undefined): void;
  readonly theme: UiTheme;
  readonly shortcutLabel: string | undefined;
}

/**
 * Keeps `setStatus("background-tasks", …)` current. It refreshes on every task change and, only while
 * a task runs, once a second (for the running task's age); with nothing running no timer exists.
 * The status is sent only when its text changes.
 */
export class FooterStatus {
  private last: string | undefined;
  private stopTicker: (() => void) | undefined;
  private dockOpen = false;
  private disposed = false;
  private readonly cleanups: Array<() => void> = [];

  constructor(private readonly host: FooterHost) {
    this.cleanups.push(
      host.subscribe(() => this.refresh()),
      host.seen.onChange(() => this.refresh()),
    );
    this.refresh();
  }

  setDockOpen(open: boolean): void {
    this.dockOpen = open;
    this.refresh();
  }

  get ticking(): boolean {
    return this.stopTicker !== undefined;
  }

  refresh(): void {
    if (this.disposed) return;
    const tasks = this.host.list();
    const parts = footerSummary(tasks, {
      now: this.host.now(),
      isSeen: (id) => this.host.seen.isSeen(id),
      dockOpen: this.dockOpen,
      shortcutLabel: this.host.shortcutLabel,
    });
    const { theme } = this.host;
    const text =
      parts === undefined
        ? undefined
        : `${theme.fg("accent", theme.bold("bg"))} ${parts.map((p) => theme.fg(TONE_COLOR[p.tone], p.text)).join(theme.fg("dim", " · "))}`;
    if (text !== this.last) {
      this.last = text;
      this.host.setStatus(text);
    }
    this.keepTicking(tasks.some((t) => t.status === "running"));
  }

  /** Stops listening and ticking, and clears the status it set. */
  dispose(): void {
    this.disposed = true;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.keepTicking(false);
    if (this.last !== undefined) {
      this.last = undefined;
      this.host.setStatus(undefined);
    }
  }

  private keepTicking(running: boolean): void {
    if (running && this.stopTicker === undefined) this.stopTicker = this.host.every(REFRESH_MS, () => this.refresh());
    if (!running && this.stopTicker !== undefined) {
      this.stopTicker();
      this.stopTicker = undefined;
    }
  }
}
