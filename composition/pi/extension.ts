import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { toolCatalogue } from "../../domain/tools/service/tool-catalogue.ts";
import { registerEventBusApi } from "../../adapters/pi/event-bus-api.ts";
import { piToolFromSpec, recordUsageCounting } from "../../adapters/pi/pi-tool.ts";
import { registerTaskCommands } from "../../adapters/pi/task-commands.ts";
import { registerCommandOutput, type CommandOutput } from "../../adapters/pi/ui/command-output.ts";
import { registerTaskUi } from "../../adapters/pi/ui/register-task-ui.ts";
import { LazySession } from "./lazy-session.ts";
import { PiApplication } from "./pi-application.ts";
import { registerFusionCommands } from "./fusion-commands.ts";
import { runtimeGated } from "./runtime-gate.ts";

/** Tools Pi keeps active even when a session starts with a narrower set (Fusion and the verified results). */
const ALWAYS_ACTIVE = ["fusion_brainstorm", "fusion_validate", "bg_delegate", "bg_result"];

/**
 * The Pi extension: every tool of the catalogue, the task commands and dock, and the Fusion commands, wired
 * per session. Loading it evaluates only what registration needs (names, descriptions, schemas); the services
 * are built on first use (see lazy-session.ts and pi-application.ts).
 */
export default function piBackgroundTasks(pi: ExtensionAPI): void {
  const session = new LazySession(pi);
  const app = new PiApplication(session);
  for (const spec of toolCatalogue(app, { delivery: "agent_turn", sessions: true }))
    pi.registerTool(piToolFromSpec(pi, spec));
  recordUsageCounting(pi);
  const gated = runtimeGated(pi, session);
  const output = registerCommandOutput(pi);
  registerTaskCommands(gated, session.current, output);
  pi.on("session_start", async (_event, ctx) => session.open(ctx));
  pi.on("session_start", async () => {
    const active = pi.getActiveTools();
    const missing = ALWAYS_ACTIVE.filter((name) => !active.includes(name));
    if (missing.length > 0) pi.setActiveTools([...active, ...missing]);
  });
  pi.on("session_shutdown", async () => session.close());
  // After the session's hooks: their session_start handlers see the new session, their shutdown ones run once its tasks stopped.
  registerTaskUi(gated, session.current, output, process.env, session);
  registerEventBusApi(pi, session.current, session);
  registerFusionCommands(pi, app.launchFusion, output);
  registerUpdateCheck(pi, output);
}

type UpdateNotice = import("../../adapters/pi/pi-update-notice.ts").PiUpdateNotice;

/**
 * The update check and `/bg-update`, inline so that loading the extension evaluates none of its modules:
 * update-check.ts is imported at session_start of a session with a UI (nothing awaits it), or by the first
 * /bg-update of a session without one. At most one lookup per session.
 */
function registerUpdateCheck(pi: ExtensionAPI, output: CommandOutput): void {
  let notice: Promise<UpdateNotice> | undefined;
  const start = (ctx: ExtensionContext) => import("./update-check.ts").then((m) => m.startUpdateCheck(ctx));
  const stop = () =>
    void notice?.then(
      (n) => n.stop(),
      () => undefined,
    );
  pi.on("session_start", async (_event, ctx) => {
    stop();
    notice = ctx.hasUI ? start(ctx) : undefined;
    notice?.catch(() => undefined);
  });
  pi.on("session_shutdown", async () => {
    stop();
    notice = undefined;
  });
  pi.registerCommand("bg-update", {
    description: "Show whether a newer pi-background-tasks release exists, and how to install it (installs nothing)",
    handler: async (_args, ctx) => {
      notice ??= start(ctx);
      await (await notice).report(ctx, output);
    },
  });
}
