import type { ExtensionCommandContext, Theme } from "@mariozechner/pi-coding-agent";
import { Key, matchesKey, type Component } from "@mariozechner/pi-tui";
import type { FusionModelsConfig, LoadedFusionModels } from "../../domain/fusion/model/fusion-models-config.ts";
import type { Result, TypedError } from "../../domain/shared/model/result.ts";
import type { FusionModelsSelector, SelectorKey, SelectorOutcome } from "./fusion-models-selector.ts";
import type { CommandOutput } from "./ui/command-output.ts";

/** Where `/fusion-models` reads and writes the global configuration (adapters/node FusionModelsStore fits). */
export interface FusionModelsCommandDeps {
  load(): Promise<Result<LoadedFusionModels, TypedError>>;
  /** Saves only if the file still has `expectedRevision`; otherwise `config_conflict`. */
  save(config: FusionModelsConfig, expectedRevision: string): Promise<Result<LoadedFusionModels, TypedError>>;
}

const OVERLAY = { width: "82%", minWidth: 64, maxHeight: "75%" } as const;

export async function runFusionModelsCommand(
  ctx: ExtensionCommandContext,
  deps: FusionModelsCommandDeps,
  show: CommandOutput,
): Promise<void> {
  if (!ctx.hasUI) return show(ctx, NO_TUI, "error");
  const loaded = await deps.load();
  if (!loaded.ok) return show(ctx, loaded.error.message, "error");
  const available = new Map(ctx.modelRegistry.getAvailable().map((m) => [`${m.provider}/${m.id}`, m.contextWindow]));
  const current = ctx.model === undefined ? undefined : `${ctx.model.provider}/${ctx.model.id}`;
  // Loaded with the first /fusion-models, not with the extension.
  const { FusionModelsSelector } = await import("./fusion-models-selector.ts");
  const selector = new FusionModelsSelector(loaded.value.config, available, current);
  const outcome = await ctx.ui.custom<SelectorOutcome>(
    (tui, theme, _keys, done) => selectorComponent(selector, theme, () => tui.requestRender(), done),
    {
      overlay: true,
      overlayOptions: OVERLAY,
    },
  );
  // RPC mode has a UI but no custom components: custom() resolves undefined there.
  if (outcome === undefined) return show(ctx, NO_TUI, "error");
  if (outcome.type === "cancel") return show(ctx, "Fusion models unchanged.", "info");
  const saved = await deps.save(outcome.config, loaded.value.revision);
  if (!saved.ok) return show(ctx, saved.error.message, "error");
  const c = saved.value.config;
  show(
    ctx,
    `Fusion models saved: candidates ${c.candidates.join(", ")}; evaluator ${c.evaluator}; merger ${c.merger}.`,
    "info",
  );
}

const NO_TUI =
  "/fusion-models needs the interactive terminal UI (it is not available in print, JSON or RPC mode). " +
  "Run it in interactive pi, or edit fusion-models.json in the Pi agent directory.";

function selectorComponent(
  selector: FusionModelsSelector,
  theme: Theme,
  rerender: () => void,
  done: (outcome: SelectorOutcome) => void,
): Component {
  return {
    render: (width) => selector.lines(width, (role, text) => theme.fg(role, text)),
    invalidate: () => undefined,
    handleInput: (data) => {
      const key = keyOf(data);
      if (key === undefined) return;
      const outcome = selector.handle(key);
      if (outcome !== undefined) done(outcome);
      else rerender();
    },
  };
}

const NAMED: ReadonlyArray<[string, SelectorKey["kind"]]> = [
  [Key.up, "up"],
  [Key.down, "down"],
  [Key.pageUp, "pageUp"],
  [Key.pageDown, "pageDown"],
  [Key.enter, "enter"],
  [Key.escape, "escape"],
  [Key.backspace, "backspace"],
];

export function keyOf(data: string): SelectorKey | undefined {
  for (const [id, kind] of NAMED) {
    if (matchesKey(data, id as Parameters<typeof matchesKey>[1])) return { kind } as SelectorKey;
  }
  return /^[\x20-\x7e]+$/.test(data) ? { kind: "text", text: data } : undefined;
}
