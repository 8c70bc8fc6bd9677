import type { ToolDefinition } from "@mariozechner/pi-coding-agent";
import { ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";
import type { DelegateResultView } from "../../domain/delegate/service/index.ts";
import { BG_RESULT_TOOL, BgResultParameters, normalizeBgResultArguments, type BgResultQuery, type FusionResultView } from "../../domain/validation/service/index.ts";
import { defineTool } from "./define-tool.ts";

/** Reads a background run's committed result; the composition root supplies it. */
export type ResultView = FusionResultView | DelegateResultView;
export type ResultReader = (query: BgResultQuery) => Promise<Result<ResultView, TypedError>>;

function textOf(view: ResultView): string {
  const answer = (view as { answer?: { text?: string } }).answer;
  return typeof answer?.text === "string" ? answer.text : JSON.stringify(view, null, 2);
}

/** `bg_result`: the hash-verified answer of a background Fusion run; never blocks, never truncates. */
export function bgResultTool(read: ResultReader): ToolDefinition {
  return defineTool({
    name: BG_RESULT_TOOL,
    label: "Background Result",
    description:
      "Return the verified result of a background run (fusion_validate, bg_delegate) once its completion notification arrived. Never waits: a running task answers 'not ready'. Large answers come back as an artifact reference, never truncated.",
    promptSnippet: "Fetch the verified result of a finished background run (once, after its notification)",
    parameters: BgResultParameters,
    normalize: normalizeBgResultArguments,
    run: async (query) => {
      const view = await read(query);
      return view.ok ? ok({ content: [{ type: "text", text: textOf(view.value) }], details: view.value }) : view;
    },
  });
}
