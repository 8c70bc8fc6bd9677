import type { TransientKind } from "./realistic-deviations.ts";
import { RealisticModel, type RealisticModelOptions } from "./realistic-model.ts";
import { isRepairPrompt, systemOf } from "./scripted-fusion-roles.ts";
import type { ResponderInput, ScriptedReply } from "./scripted-model-server.ts";

const TRANSIENT_REPLIES: Readonly<Record<TransientKind, ScriptedReply>> = {
  http_429: {
    httpError: {
      status: 429,
      headers: { "retry-after": "1" },
      body: { error: { message: "Rate limit reached, retry after 1 s", type: "rate_limit_error" } },
    },
  },
  http_500: { httpError: { status: 500, body: { error: { message: "Internal server error", type: "server_error" } } } },
  http_503: {
    httpError: { status: 503, body: { error: { message: "Service unavailable: overloaded", type: "overloaded" } } },
  },
  dropped_connection: { dropConnection: true },
};

/**
 * The scripted model server's realistic mode: every Fusion stage answered by the realistic model.
 * Calls are keyed by model, whether they ask for a repair, and how many such calls came before: prompts
 * carry run ids and Pi adds the date and directory to system prompts, so keying by text would make a
 * seed draw differently on every run. With a model per slot a seed is reproducible; a retry draws anew.
 * Undefined for any other request, so a caller can chain the parent agent's replies.
 */
export function realisticResponder(options: RealisticModelOptions): {
  readonly model: RealisticModel;
  readonly respond: (input: ResponderInput) => ScriptedReply | undefined;
} {
  const model = new RealisticModel(options);
  const seen = new Map<string, number>();
  const respond = (input: ResponderInput): ScriptedReply | undefined => {
    const system = systemOf(input);
    const prompt = input.lastUserText ?? "";
    const request = `${input.model}\u0000${isRepairPrompt(prompt) ? "repair" : "answer"}`;
    const occurrence = seen.get(request) ?? 0;
    seen.set(request, occurrence + 1);
    const answer = model.answer(system, prompt, input.model, `${request}\u0000${occurrence}`);
    if (answer === undefined) return undefined;
    if (answer.kind === "transient") return TRANSIENT_REPLIES[answer.failure];
    return {
      text: answer.text,
      ...(answer.finishReason === undefined ? {} : { finishReason: answer.finishReason }),
      ...(answer.usage === undefined ? {} : { usage: answer.usage }),
    };
  };
  return { model, respond };
}
