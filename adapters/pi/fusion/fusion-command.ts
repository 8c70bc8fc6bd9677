import { BorderedLoader, type ExtensionAPI, type ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import type { FusionRunOutcome } from "../../../domain/fusion/service/index.ts";
import type { Result, TypedError } from "../../../domain/shared/model/result.ts";
import type { FusionLauncher } from "../../../domain/fusion/service/fusion-launch.ts";
import { piHostSession } from "../pi-host-session.ts";
import type { CommandOutput } from "../ui/command-output.ts";

const STATUS_KEY = "fusion";
const USAGE = "Usage: /fusion <prompt> (in the interactive TUI, /fusion alone opens an editor)";

async function promptFrom(
  args: string,
  ctx: ExtensionCommandContext,
  report: CommandOutput,
): Promise<string | undefined> {
  const given = args.trim();
  if (given.length > 0) return given;
  if (!ctx.hasUI) {
    report(ctx, `/fusion needs a prompt here. ${USAGE}`, "error");
    return undefined;
  }
  const edited = (await ctx.ui.editor("Fusion prompt", ""))?.trim();
  if (!edited) report(ctx, "Fusion cancelled: no prompt was given; nothing was started.", "info");
  return edited || undefined;
}

/** Shows a cancellable loader while the run lasts (TUI); other modes just wait for the run. */
async function withLoader(
  ctx: ExtensionCommandContext,
  controller: AbortController,
  run: Promise<Result<FusionRunOutcome, TypedError>>,
): Promise<void> {
  await ctx.ui.custom<void>(
    (tui, theme, _keys, done) => {
      const loader = new BorderedLoader(tui, theme, "Fusion: three models are working… (Esc cancels)");
      loader.onAbort = () => controller.abort();
      void run.finally(() => done(undefined));
      return loader;
    },
    { overlay: true, overlayOptions: { anchor: "center", width: "70%", minWidth: 48, maxHeight: "40%" } },
  );
}

/** `/fusion [prompt]`: runs the workflow over the visible conversation and shows the merged answer as is. */
export async function runFusionCommand(
  pi: ExtensionAPI,
  launch: FusionLauncher,
  report: CommandOutput,
  args: string,
  ctx: ExtensionCommandContext,
): Promise<void> {
  const prompt = await promptFrom(args, ctx, report);
  if (prompt === undefined) return;
  await ctx.waitForIdle();
  const controller = new AbortController();
  const run = launch({
    prompt,
    capability: "reason",
    source: "command",
    session: piHostSession(pi, ctx),
    signal: controller.signal,
    onProgress: (p) => ctx.ui.setStatus(STATUS_KEY, p.status),
  });
  await withLoader(ctx, controller, run);
  const outcome = await run;
  ctx.ui.setStatus(STATUS_KEY, undefined);
  if (!outcome.ok) return report(ctx, outcome.error.message, "error");
  const { text, details } = outcome.value;
  pi.sendMessage(
    {
      customType: "fusion-request",
      content: prompt,
      display: false,
      details: { schema_version: "pi-background-tasks.fusion-request.v1", run_id: details.run_id, prompt },
    },
    { triggerTurn: false },
  );
  pi.sendMessage(
    {
      customType: "fusion-result",
      content: text,
      display: true,
      details: { ...details, usage: outcome.value.usage },
    },
    { triggerTurn: false },
  );
}
