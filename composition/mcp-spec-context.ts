import type { RuntimeAccess } from "../domain/tasks/service/task-tool-specs.ts";
import type { Result } from "../domain/shared/model/result.ts";
import type { Clock } from "../ports/clock.ts";
import type { PiCliLocation, PiCliNotFound } from "../adapters/node/pi-cli-locator.ts";

/** What the MCP host hands the tool specs it serves beyond the task tools (Fusion, results). */
export interface McpSpecContext {
  readonly runtime: RuntimeAccess;
  readonly clock: Clock;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly pid: number;
  readonly piCli: Result<PiCliLocation, PiCliNotFound>;
  /** Runs `hook` when the session closes, after every task was stopped and before the transport closes. */
  readonly onClose: (hook: () => Promise<void>) => void;
}
