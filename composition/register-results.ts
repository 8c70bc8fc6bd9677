import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { readTaskResult } from "../domain/results/service/bg-result-spec.ts";
import { bgResultTool } from "../adapters/pi/bg-result-tool.ts";
import { delegateTool } from "../adapters/pi/delegate-tool.ts";
import type { RuntimeLifecycle } from "../adapters/pi/runtime-lifecycle.ts";
import { OnFirstUse } from "./on-first-use.ts";

/**
 * `bg_delegate` and `bg_result`: background agents whose answers come back verified. The delegate runner and
 * the filesystem adapter are imported on the first call of either tool.
 */
export function registerDelegatesAndResults(pi: ExtensionAPI, lifecycle: RuntimeLifecycle): void {
  const services = new OnFirstUse(async () => {
    const [{ DelegateRuns }, { NodeFileCommitter }] = await Promise.all([
      import("./delegate-runs.ts"),
      import("../adapters/node/node-file-committer.ts"),
    ]);
    return { delegates: new DelegateRuns(), files: new NodeFileCommitter() };
  });
  pi.registerTool(
    delegateTool(async (args, toolCallId, ctx) => {
      const runtime = await lifecycle.ready();
      return (await services.get()).delegates.launch(args, toolCallId, ctx, runtime);
    }),
  );
  pi.registerTool(
    bgResultTool(async (query) => {
      const runtime = await lifecycle.ready();
      const { files, delegates } = await services.get();
      return readTaskResult({ files, runtime, delegates }, query);
    }),
  );
  pi.on("session_start", async () => {
    const active = pi.getActiveTools();
    const missing = ["bg_delegate", "bg_result"].filter((name) => !active.includes(name));
    if (missing.length > 0) pi.setActiveTools([...active, ...missing]);
  });
  pi.on("session_shutdown", async () => (await services.ifCreated())?.delegates.shutdown());
}
