import type { ContextWindowIndex } from "../../domain/telemetry/model/pi-event-telemetry.ts";

/** `provider/id` → context window of every model the host's registry knows (ctx.modelRegistry.getAll()). */
export function contextWindowIndex(
  models: readonly { readonly provider: string; readonly id: string; readonly contextWindow?: number }[],
): ContextWindowIndex {
  const index = new Map<string, number>();
  for (const model of models) {
    if (typeof model.contextWindow === "number" && model.contextWindow > 0)
      index.set(`${model.provider}/${model.id}`, model.contextWindow);
  }
  return index;
}
