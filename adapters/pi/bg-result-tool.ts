import type { ToolDefinition } from "@mariozechner/pi-coding-agent";
import { bgResultToolSpec, type ResultReader, type ResultView } from "../../domain/results/service/bg-result-spec.ts";
import { piToolFromSpec } from "./task-tools.ts";

export type { ResultReader, ResultView };

/** `bg_result`: the hash-verified answer of a background run; never blocks, never truncates. */
export function bgResultTool(read: ResultReader): ToolDefinition {
  return piToolFromSpec(bgResultToolSpec("agent_turn", read));
}
