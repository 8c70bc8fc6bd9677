import { type Component, matchesKey } from "@mariozechner/pi-tui";
import { keepSelection, moveSelection, windowStart } from "../../../domain/tasks/model/list-window.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { FOLLOWING, scrollBy, scrollToTop, type TailViewport } from "../../../domain/tasks/model/tail-viewport.ts";
import {
  answerStopAll,
  askStopAll,
  type DockMessage,
  type DockOutput,
  rerunTask,
  showOutputPath,
  stopTask,
} from "./dock-actions.ts";
import { detailFields, renderTail } from "./dock-detail-view.ts";
import type { DockHost, DockScreen } from "./dock-host.ts";
import { dockRows, dockTitle, renderListBody } from "./dock-list-view.ts";
import { fit, frame, frameInnerWidth, oneLine, wrapLimited } from "./terminal-text.ts";
import type { UiTheme } from "./ui-theme.ts";

export const LIST_HELP =
  "↑↓ move · PgUp/PgDn page · Enter/→ open · k stop · a/K stop all · R rerun · h history · c output path · x/Esc/q close";
export const DETAIL_HELP =
  "↑↓ PgUp/PgDn scroll · Home/End · r follow · k stop · R rerun · c output path · ←/Esc back · x/q close";
export const MAX_LIST_PAGE = 14;
export const MAX_TAIL_LINES = 12;
const REFRESH_MS = 1000;

/** The task dock overlay: a list of tasks and a detail view with a live output tail. */
export class TaskDock implements Component {
  private view: "list" | "detail" = "list";
  private selected: string | undefined;
  private detailId: string | undefined;
  private history = false;
  private listStart = 0;
  private pageSize = MAX_LIST_PAGE;
  private readonly shown = new Set<string>();
  private tail: string[] | undefined;
  private tailError: string | undefined;
  private viewport: TailViewport = FOLLOWING;
  private tailHeight = MAX_TAIL_LINES;
  private readSeq = 0;
  private confirming: readonly string[] | undefined;
  private message: DockMessage | undefined;
  private disposed = false;
  private readonly cleanups: Array<() => void> = [];
  private readonly output: DockOutput = {
    say: (message) => {
      this.message = message;
    },
    requestRender: () => this.screen.requestRender(),
    report: (message) => this.report(message),
  };

  constructor(
    private readonly host: DockHost,
    private readonly theme: UiTheme,
    private readonly screen: DockScreen,
    private readonly close: () => void,
    initialTaskId?: string,
  ) {
    for (const task of this.rows()) this.shown.add(task.id);
    this.selected = this.rows()[0]?.id;
    if (initialTaskId !== undefined) this.openDetail(initialTaskId);
    this.cleanups.push(host.subscribe(() => this.onTasksChanged()));
    this.cleanups.push(host.every(REFRESH_MS, () => this.onTick()));
  }

  render(width: number): string[] {
    const inner = frameInnerWidth(width);
    // The overlay is capped at 60% of the terminal (Pi cuts what is taller); the frame takes two lines.
    const budget = Math.max(1, Math.floor(this.screen.rows() * 0.6) - 2);
    const footer = [
      ...this.messageLines(inner),
      ...wrapLimited(this.theme.fg("dim", this.view === "list" ? LIST_HELP : DETAIL_HELP), inner, 3),
    ];
    const task = this.detailTask();
    if (this.view === "detail" && task !== undefined) {
      const fields = detailFields(task, this.host.now(), inner, this.theme);
      this.tailHeight = Math.max(1, Math.min(MAX_TAIL_LINES, budget - fields.length - 1 - footer.length));
      const tail = renderTail(
        {
          task,
          now: this.host.now(),
          tail: this.tail,
          tailError: this.tailError,
          viewport: this.viewport,
          tailHeight: this.tailHeight,
        },
        inner,
        this.theme,
      );
      const shownFields = fields.slice(0, Math.max(0, budget - tail.length - footer.length));
      return frame(
        `${oneLine(task.name)} (${task.id})`,
        [...shownFields, ...tail, ...footer].slice(0, budget),
        width,
        this.theme,
      );
    }
    const rows = this.rows();
    // One line stays free for the "↑/↓ N more" row.
    const pageSize = Math.max(1, Math.min(MAX_LIST_PAGE, budget - footer.length - 1));
    this.pageSize = pageSize;
    const index = Math.max(
      0,
      rows.findIndex((t) => t.id === this.selected),
    );
    this.listStart = windowStart(rows.length, index, pageSize, this.listStart);
    const all = this.host.list();
    const body = renderListBody(
      {
        tasks: rows,
        selected: this.selected,
        start: this.listStart,
        pageSize,
        history: this.history,
        hiddenFinished: all.length - rows.length,
        now: this.host.now(),
        isSeen: (id) => this.host.seen.isSeen(id),
      },
      inner,
      this.theme,
    );
    return frame(
      dockTitle(all, this.history, (id) => this.host.seen.isSeen(id)),
      [...body, ...footer].slice(0, budget),
      width,
      this.theme,
    );
  }

  handleInput(data: string): void {
    if (this.confirming !== undefined) return this.answerConfirmation(data);
    this.message = undefined;
    if (this.view === "detail") this.detailKey(data);
    else this.listKey(data);
    this.screen.requestRender();
  }

  invalidate(): void {
    // Nothing cached: every render is computed from the current state and theme.
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  private listKey(data: string): void {
    const ids = this.rows().map((t) => t.id);
    const page = this.pageSize;
    if (matchesKey(data, "up")) this.selected = moveSelection(ids, this.selected, -1);
    else if (matchesKey(data, "down")) this.selected = moveSelection(ids, this.selected, 1);
    else if (matchesKey(data, "pageUp")) this.selected = moveSelection(ids, this.selected, -page);
    else if (matchesKey(data, "pageDown")) this.selected = moveSelection(ids, this.selected, page);
    else if (matchesKey(data, "enter") || matchesKey(data, "right")) {
      if (this.selected !== undefined) this.openDetail(this.selected);
    } else if (matchesKey(data, "h")) this.toggleHistory();
    else if (matchesKey(data, "k")) stopTask(this.host, this.output, this.selected);
    else if (matchesKey(data, "a") || matchesKey(data, "shift+k")) this.confirming = askStopAll(this.host, this.output);
    else if (matchesKey(data, "shift+r")) this.rerun(this.selected);
    else if (matchesKey(data, "c")) showOutputPath(this.host, this.output, this.selected);
    else if (matchesKey(data, "x") || matchesKey(data, "q") || matchesKey(data, "escape")) this.finish();
  }

  private detailKey(data: string): void {
    const wasFollowing = this.viewport.following;
    this.detailMove(data);
    // Reaching the bottom resumes following: fetch what arrived while the view was frozen.
    if (!wasFollowing && this.viewport.following && this.view === "detail") this.reloadTail();
  }

  private detailMove(data: string): void {
    const total = this.tail?.length ?? 0;
    const scroll = (delta: number) => (this.viewport = scrollBy(this.viewport, delta, total, this.tailHeight));
    if (matchesKey(data, "up")) scroll(-1);
    else if (matchesKey(data, "down")) scroll(1);
    else if (matchesKey(data, "pageUp")) scroll(-this.tailHeight);
    else if (matchesKey(data, "pageDown")) scroll(this.tailHeight);
    else if (matchesKey(data, "home")) this.viewport = scrollToTop(total, this.tailHeight);
    else if (matchesKey(data, "end") || matchesKey(data, "r")) this.viewport = FOLLOWING;
    else if (matchesKey(data, "k")) stopTask(this.host, this.output, this.detailId);
    else if (matchesKey(data, "shift+r")) this.rerun(this.detailId);
    else if (matchesKey(data, "c")) showOutputPath(this.host, this.output, this.detailId);
    else if (matchesKey(data, "left") || matchesKey(data, "escape") || matchesKey(data, "backspace"))
      this.view = "list";
    else if (matchesKey(data, "x") || matchesKey(data, "q")) this.finish();
  }

  private rows(): TaskSnapshot[] {
    return dockRows(this.host.list(), {
      history: this.history,
      isSeen: (id) => this.host.seen.isSeen(id),
      shown: this.shown,
    });
  }

  private detailTask(): TaskSnapshot | undefined {
    return this.host.list().find((t) => t.id === this.detailId);
  }

  private openDetail(taskId: string): void {
    const task = this.host.list().find((t) => t.id === taskId);
    if (task === undefined) {
      this.message = { text: `No task ${taskId} in this session.`, color: "error" };
      return;
    }
    this.view = "detail";
    this.detailId = task.id;
    this.selected = task.id;
    this.shown.add(task.id);
    this.tail = undefined;
    this.tailError = undefined;
    this.viewport = FOLLOWING;
    this.host.seen.markSeen(task);
    this.reloadTail();
  }

  private toggleHistory(): void {
    this.history = !this.history;
    this.selected = keepSelection(
      this.rows().map((t) => t.id),
      this.selected,
    );
  }

  private answerConfirmation(data: string): void {
    const ids = this.confirming ?? [];
    this.confirming = undefined;
    answerStopAll(this.host, this.output, ids, matchesKey(data, "y") || matchesKey(data, "shift+y"));
  }

  private rerun(taskId: string | undefined): void {
    rerunTask(this.host, this.output, taskId, (started) => {
      this.shown.add(started.id);
      this.selected = started.id;
      if (this.view === "detail") this.openDetail(started.id);
    });
  }

  private finish(): void {
    this.dispose();
    this.close();
  }

  private report(message: DockMessage): void {
    if (this.disposed) return;
    this.message = message;
    this.screen.requestRender();
  }

  private messageLines(width: number): string[] {
    if (this.message === undefined) return [];
    return wrapLimited(this.theme.fg(this.message.color, this.message.text), width, 2).map((line) => fit(line, width));
  }

  private reloadTail(): void {
    const taskId = this.detailId;
    if (taskId === undefined || !this.viewport.following) return;
    const seq = ++this.readSeq;
    void this.host.readTail(taskId).then((read) => {
      if (this.disposed || seq !== this.readSeq || this.detailId !== taskId || !this.viewport.following) return;
      this.tail = read.ok ? read.value : this.tail;
      this.tailError = read.ok ? undefined : read.error.message;
      this.screen.requestRender();
    });
  }

  private onTasksChanged(): void {
    if (this.disposed) return;
    const task = this.detailTask();
    if (this.view === "detail" && task === undefined) {
      // Pruned from the registry (only the newest finished tasks are retained).
      this.view = "list";
      this.message = { text: `Task ${this.detailId ?? ""} is no longer retained in this session.`, color: "warning" };
    }
    if (this.view === "detail" && task !== undefined) {
      this.host.seen.markSeen(task);
      if (task.status !== "running") this.reloadTail();
    }
    this.selected = keepSelection(
      this.rows().map((t) => t.id),
      this.selected,
    );
    this.screen.requestRender();
  }

  private onTick(): void {
    if (this.disposed) return;
    const task = this.detailTask();
    if (this.view === "detail" && task?.status === "running") this.reloadTail();
    if (this.host.list().some((t) => t.status === "running")) this.screen.requestRender();
  }
}
