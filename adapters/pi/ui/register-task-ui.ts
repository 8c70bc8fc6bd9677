import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AutocompleteItem } from "@mariozechner/pi-tui";
import { NOTIFICATION_CUSTOM_TYPE } from "../../../domain/tasks/model/notification.ts";
import type { TaskRuntime } from "../../../domain/tasks/service/task-runtime.ts";
import type { RuntimeLifecycle } from "../runtime-lifecycle.ts";
import type { RuntimeAccess } from "../../../domain/tasks/service/task-tool-specs.ts";
import { TypedFailure } from "../typed-error.ts";
import { taskShortcutsFromEnv, type Shortcut } from "./shortcut-config.ts";
import { FOOTER_STATUS_KEY, FooterStatus } from "./footer-status.ts";
import { notificationRenderer } from "./notification-renderer.ts";
import { SeenTasks } from "./seen-tasks.ts";
import type { DockHost } from "./dock-host.ts";
import { type CommandOutput, hostMode } from "./command-output.ts";
import { PLAIN_THEME } from "./ui-theme.ts";

const NO_TUI =
  "The task dock needs Pi's interactive terminal UI. Use /jobs to list tasks, /logs <id> to read output and /kill <id> to stop one.";

export const DOCK_OVERLAY_OPTIONS = {
  anchor: "bottom-center",
  width: "96%",
  minWidth: 64,
  maxHeight: "60%",
  margin: { bottom: 1, left: 1, right: 1 },
} as const;

function every(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/** UI state of one Pi session: which tasks were seen, the footer, and whether the dock is open. */
class UiSession {
  readonly seen = new SeenTasks();
  private footer: FooterStatus | undefined;
  private dockOpen = false;

  constructor(
    private readonly runtime: RuntimeAccess,
    private readonly ctx: ExtensionContext,
    private readonly shortcut: Shortcut | undefined,
    private readonly say: CommandOutput,
  ) {}

  /** Starts the footer (when there is a UI) on the session's runtime; until it exists there is no task to show. */
  attach(runtime: TaskRuntime): void {
    const { ctx, shortcut } = this;
    if (!ctx.hasUI) return;
    // RPC clients show the status as text: colour codes would arrive as escape sequences in statusText.
    const styled = hostMode(ctx) === "tui";
    this.footer?.dispose();
    this.footer = new FooterStatus({
      list: () => runtime.list(),
      subscribe: (listener) => runtime.subscribe(() => listener()),
      seen: this.seen,
      now: Date.now,
      every,
      setStatus: (text) => ctx.ui.setStatus(FOOTER_STATUS_KEY, text),
      get theme() {
        return styled ? ctx.ui.theme : PLAIN_THEME;
      },
      shortcutLabel: shortcut?.label,
    });
    if (this.dockOpen) this.footer.setDockOpen(true);
  }

  async openDock(ctx: ExtensionContext, taskId: string | undefined): Promise<void> {
    if (!ctx.hasUI) return this.say(ctx, NO_TUI, "error");
    // The dock's views load with the first dock, not with the extension.
    const [{ TaskDock }, { tailReader }, { rerunTask }] = await Promise.all([
      import("./task-dock.ts"),
      import("./output-tail.ts"),
      import("./shell-rerun.ts"),
    ]);
    if (this.dockOpen) return this.say(ctx, "The task dock is already open.", "info");
    const runtime = this.runtime();
    const host: DockHost = {
      list: () => runtime.list(),
      readTail: tailReader((id, request) => runtime.readLog(id, request)),
      stop: (id) => runtime.kill(id),
      rerun: (task) => rerunTask(runtime, task),
      seen: this.seen,
      now: Date.now,
      subscribe: (listener) => runtime.subscribe(() => listener()),
      every,
    };
    let shown = false;
    this.setDockOpen(true);
    try {
      await ctx.ui.custom<undefined>(
        (tui, theme, _keybindings, done) => {
          shown = true;
          return new TaskDock(
            host,
            theme,
            { requestRender: () => tui.requestRender(), rows: () => tui.terminal.rows },
            () => done(undefined),
            taskId,
          );
        },
        { overlay: true, overlayOptions: { ...DOCK_OVERLAY_OPTIONS, margin: { ...DOCK_OVERLAY_OPTIONS.margin } } },
      );
    } finally {
      this.setDockOpen(false);
    }
    // RPC hosts have no component UI: custom() returns at once without building the dock.
    if (!shown) this.say(ctx, NO_TUI, "error");
  }

  dispose(): void {
    this.footer?.dispose();
  }

  private setDockOpen(open: boolean): void {
    this.dockOpen = open;
    this.footer?.setDockOpen(open);
  }
}

/**
 * The task UI: footer status, the dock (/tasks, /bg-tasks and a shortcut), /bg-clear and the
 * completion-notice renderer. Call after the runtime's own session hooks so the runtime exists first, or pass
 * the lifecycle that builds it on first need (the footer then starts with the runtime).
 * An invalid PI_BG_DOCK_SHORTCUT or PI_BG_CLEAR_SHORTCUT fails the extension load with pi_bg_config_invalid.
 */
export function registerTaskUi(
  pi: ExtensionAPI,
  runtime: RuntimeAccess,
  say: CommandOutput,
  env: Readonly<Record<string, string | undefined>> = process.env,
  lifecycle?: RuntimeLifecycle,
): void {
  const shortcuts = taskShortcutsFromEnv(env);
  if (!shortcuts.ok) throw new TypedFailure(shortcuts.error);
  const { dock, clear } = shortcuts.value;
  let session: UiSession | undefined;
  const current = (): UiSession => {
    if (session === undefined)
      throw new TypedFailure({
        code: "session_not_started",
        message: "pi-background-tasks is not active: the Pi session has not started or is shutting down",
      });
    return session;
  };

  pi.registerMessageRenderer(NOTIFICATION_CUSTOM_TYPE, notificationRenderer());

  const dockCommand = {
    description: "Open the background task dock (optionally on one task): /tasks [id]",
    getArgumentCompletions: (prefix: string): AutocompleteItem[] | null => {
      const items = runtime()
        .list()
        .filter((t) => t.id.startsWith(prefix.trim()))
        .slice(0, 20)
        .map((t) => ({ value: t.id, label: `${t.id}  ${t.status}  ${t.name}` }));
      return items.length > 0 ? items : null;
    },
    handler: async (args: string, ctx: ExtensionContext) => {
      if (!ctx.hasUI) return say(ctx, NO_TUI, "error");
      const ui = current();
      if (args.trim() === "") return ui.openDock(ctx, undefined);
      const found = runtime().find(args);
      if (!found.ok) return say(ctx, found.error.message, "error");
      return ui.openDock(ctx, found.value.id);
    },
  };
  pi.registerCommand("tasks", dockCommand);
  pi.registerCommand("bg-tasks", dockCommand);

  const clearFinished = (ctx: ExtensionContext): void => {
    const cleared = current().seen.markFinished(runtime().list());
    say(
      ctx,
      cleared === 0
        ? "No unseen finished background tasks."
        : `Marked ${cleared} finished background ${cleared === 1 ? "task" : "tasks"} as seen.`,
      "info",
    );
  };
  pi.registerCommand("bg-clear", {
    description: "Mark all finished background tasks as seen (clears them from the footer)",
    handler: async (_args, ctx) => clearFinished(ctx),
  });

  if (dock !== undefined) {
    pi.registerShortcut(dock.key, {
      description: "Open the background task dock",
      handler: async (ctx) => current().openDock(ctx, undefined),
    });
  }
  if (clear !== undefined) {
    pi.registerShortcut(clear.key, {
      description: "Mark all finished background tasks as seen (/bg-clear)",
      handler: async (ctx) => clearFinished(ctx),
    });
  }

  lifecycle?.onBuilt((built) => session?.attach(built));
  pi.on("session_start", async (_event, ctx) => {
    session?.dispose();
    const built = lifecycle === undefined ? runtime() : lifecycle.built();
    session = new UiSession(runtime, ctx, dock, say);
    if (built !== undefined) session.attach(built);
  });
  pi.on("session_shutdown", async () => {
    session?.dispose();
    session = undefined;
  });
}
