import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { attestedPiTool } from "../adapters/pi/attested-pi-tool.ts";
import { registerEventBusApi } from "../adapters/pi/event-bus-api.ts";
import { registerTaskCommands } from "../adapters/pi/task-commands.ts";
import { registerTaskUi } from "../adapters/pi/ui/register-task-ui.ts";
import { taskTools } from "../adapters/pi/task-tools.ts";
import type { BudgetGateFactory } from "./fusion-runs.ts";
import { LazySession } from "./lazy-session.ts";
import { registerFusion } from "./register-fusion.ts";
import { registerDelegatesAndResults } from "./register-results.ts";
import { runtimeGated } from "./runtime-gate.ts";

/** Fusion's budget gate: the conservative estimator, loaded with the Fusion runtime on its first use. */
async function budgetGate(): Promise<BudgetGateFactory> {
  const [{ budgetGateFor }, { calibratedEstimator }] = await Promise.all([
    import("./fusion-runs.ts"),
    import("../domain/fusion/model/fusion-budget-plan.ts"),
  ]);
  return budgetGateFor(calibratedEstimator, "input-token-calibration.v1");
}

/**
 * The Pi extension: background task tools and commands, wired per session. Loading it evaluates only what
 * registration needs (names, descriptions, schemas); the runtime and everything behind it is imported on
 * first use (see lazy-session.ts and the Fusion and delegate registrations).
 */
export default function piBackgroundTasks(pi: ExtensionAPI): void {
  const session = new LazySession(pi);
  const gated = runtimeGated(pi, session);
  for (const tool of taskTools(session.current)) gated.registerTool(tool);
  gated.registerTool(attestedPiTool(() => session.attested()));
  registerTaskCommands(gated, session.current);
  pi.on("session_start", async (_event, ctx) => session.open(ctx));
  pi.on("session_shutdown", async () => session.close());
  // After the session's hooks: their session_start handlers see the new session, their shutdown ones run once its tasks stopped.
  registerTaskUi(gated, session.current, process.env, session);
  registerEventBusApi(pi, session.current, session);
  registerFusion(pi, budgetGate, session);
  registerDelegatesAndResults(pi, session);
}
