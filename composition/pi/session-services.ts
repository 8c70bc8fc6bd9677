import { getAgentDir, type ExtensionAPI, type ExtensionContext } from "@mariozechner/pi-coding-agent";
import { sanitizeSessionId, type TaskSettings } from "../../domain/tasks/model/runtime-settings.ts";
import type { RecoveredTask } from "../../domain/tasks/service/recovered-task.ts";
import type { TaskRuntimeConfig } from "../../domain/tasks/service/task-runtime.ts";
import { locatePiCli } from "../../adapters/node/pi-cli-locator.ts";
import { agentHostBindings } from "./agent-host.ts";
import { piHostModule } from "./pi-host-module.ts";
import { createServices, type Services } from "../services.ts";

/**
 * Builds one Pi session's services (see services.ts) over the real adapters and Pi's message bus.
 * Loaded with `import()` on the session's first need (lazy-session.ts): the boundary of the heavy modules.
 */
export async function openSessionServices(
  pi: ExtensionAPI,
  ctx: ExtensionContext,
  settings: TaskSettings,
  config: TaskRuntimeConfig,
  recovered: Promise<readonly RecoveredTask[]>,
): Promise<Services> {
  const warn = (message: string) =>
    ctx.hasUI ? ctx.ui.notify(message, "warning") : process.stderr.write(`[pi-background-tasks] ${message}\n`);
  const piCli = locatePiCli();
  return createServices({
    adapters: piHostModule(pi, config, warn, agentHostBindings(ctx, settings, config, piCli), {
      piCli,
      env: process.env,
      agentDir: getAgentDir(),
      place: { cwd: config.cwd, sessionId: sanitizeSessionId(ctx.sessionManager.getSessionId()) },
      pid: process.pid,
    }),
    profile: { delivery: "agent_turn", sessions: true },
    config,
    recovered,
  });
}
