import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { Container, Text } from "@mariozechner/pi-tui";

/** Where a command's answer is read: Pi's terminal UI, an RPC client, or no UI at all (print and json modes). */
export type HostMode = "tui" | "rpc" | "none";

/**
 * Pi 1.x says its mode (`ctx.mode`). Pi 0.73.1 does not; there, the RPC UI lists no themes while the terminal
 * UI always lists its built-in ones, so the theme list tells the two apart.
 */
export function hostMode(ctx: Pick<ExtensionContext, "hasUI" | "ui">): HostMode {
  const declared = (ctx as { mode?: unknown }).mode;
  if (declared === "tui" || declared === "rpc") return declared;
  if (declared !== undefined || !ctx.hasUI) return "none";
  return ctx.ui.getAllThemes().length === 0 ? "rpc" : "tui";
}

export type OutputLevel = "info" | "warning" | "error";

/** How a slash command answers the user who typed it. */
export type CommandOutput = (ctx: ExtensionContext, message: string, level: OutputLevel) => void;

export const COMMAND_OUTPUT_TYPE = "pi-background-tasks.command-output";
const WIDGET_MAX_LINES = 20;

interface EntryRendering {
  registerEntryRenderer(customType: string, renderer: (entry: { data?: unknown }) => Text | undefined): void;
}

function rendersEntries(pi: ExtensionAPI): pi is ExtensionAPI & EntryRendering {
  return typeof (pi as Partial<EntryRendering>).registerEntryRenderer === "function";
}

/** The answers shown since the user's last prompt, newest last: the newest `max` lines, with a receipt for the rest. */
export function stackedLines(blocks: readonly string[], max: number): string[] {
  const lines = blocks.flatMap((block, i) => (i === 0 ? [] : [""]).concat(block.split("\n")));
  if (lines.length <= max) return lines;
  return ["… earlier output not shown (/jobs and /logs show it again)", ...lines.slice(lines.length - (max - 1))];
}

/**
 * Command answers that stay on screen and never enter the model's context (a custom message would: Pi sends
 * those to the model as user messages). In the terminal UI, information goes to a display-only transcript
 * entry where Pi renders them (1.x), else to a widget above the editor holding every answer since the user's
 * last prompt (0.73.1, whose info notifications replace each other). Warnings and errors stay notifications,
 * which the terminal keeps; RPC clients get every answer as a notification; without a UI answers go to
 * stderr, since stdout may carry a JSON event stream.
 */
export function registerCommandOutput(pi: ExtensionAPI): CommandOutput {
  const entries = rendersEntries(pi);
  if (entries)
    pi.registerEntryRenderer(COMMAND_OUTPUT_TYPE, ({ data }) => {
      const text = (data as { text?: unknown } | undefined)?.text;
      return typeof text === "string" ? new Text(text, 1, 0) : undefined;
    });
  let shown: string[] = [];
  let shownIn: ExtensionContext | undefined;
  if (!entries)
    pi.on("input", async () => {
      if (shown.length > 0) shownIn?.ui.setWidget(COMMAND_OUTPUT_TYPE, undefined);
      shown = [];
      return { action: "continue" };
    });

  return (ctx, message, level) => {
    const mode = hostMode(ctx);
    if (mode === "none") return void process.stderr.write(`${message}\n`);
    if (mode === "rpc" || level !== "info") return ctx.ui.notify(message, level);
    if (entries) return pi.appendEntry(COMMAND_OUTPUT_TYPE, { text: message });
    shown = [...shown, message].slice(-WIDGET_MAX_LINES); // each answer is at least one line
    shownIn = ctx;
    const lines = stackedLines(shown, WIDGET_MAX_LINES);
    ctx.ui.setWidget(COMMAND_OUTPUT_TYPE, () => {
      const box = new Container();
      for (const line of lines) box.addChild(new Text(line, 1, 0));
      return box;
    });
  };
}
