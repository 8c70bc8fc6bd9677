import type { ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import type { Component } from "@mariozechner/pi-tui";
import { describe, expect, it, vi } from "vitest";
import { notifyOutput } from "./ui/notify-output.test-support.ts";
import {
  DEFAULT_FUSION_MODELS_CONFIG,
  withSelection,
  type FusionModelsConfig,
  type LoadedFusionModels,
} from "../../domain/fusion/model/fusion-models-config.ts";
import { err, ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";
import { keyOf, runFusionModelsCommand, type FusionModelsCommandDeps } from "./fusion-models-command.ts";

const DOWN = "\x1b[B";
const UP = "\x1b[A";
const ENTER = "\r";
const ESC = "\x1b";

interface Harness {
  readonly ctx: ExtensionCommandContext;
  readonly notes: Array<[string, string]>;
  readonly customOptions: unknown[];
}

/** A context whose `ui.custom` renders the component and types `keys` into it. */
function harness(keys: readonly string[] | "no-custom", hasUI = true): Harness {
  const notes: Array<[string, string]> = [];
  const customOptions: unknown[] = [];
  const ui = {
    notify: (message: string, level: string) => notes.push([level, message]),
    custom: (
      factory: (tui: unknown, theme: unknown, kb: unknown, done: (v: unknown) => void) => Component,
      options: unknown,
    ) => {
      customOptions.push(options);
      if (keys === "no-custom") return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const component = factory(
          { requestRender: () => undefined },
          { fg: (_c: string, t: string) => t },
          undefined,
          resolve,
        );
        for (const key of keys) {
          expect(component.render(100).length).toBeGreaterThan(0);
          component.handleInput?.(key);
        }
      });
    },
  };
  const ctx = {
    hasUI,
    ui,
    model: { provider: "scripted", id: "a" },
    modelRegistry: {
      getAvailable: () => [
        { provider: "scripted", id: "b" },
        { provider: "scripted", id: "a" },
      ],
    },
  } as unknown as ExtensionCommandContext;
  return { ctx, notes, customOptions };
}

function deps(
  saveResult?: Result<LoadedFusionModels, TypedError>,
  loadResult?: Result<LoadedFusionModels, TypedError>,
) {
  const loaded: LoadedFusionModels = { config: DEFAULT_FUSION_MODELS_CONFIG, revision: "rev-1", exists: true };
  const saves: Array<[FusionModelsConfig, string]> = [];
  const d: FusionModelsCommandDeps = {
    load: vi.fn(async () => loadResult ?? ok(loaded)),
    save: async (config, revision) => {
      saves.push([config, revision]);
      return saveResult ?? ok({ config, revision: "rev-2", exists: true });
    },
  };
  return { d, saves };
}

describe("/fusion-models", () => {
  it("opens the overlay, saves the chosen slot against the loaded revision", async () => {
    const h = harness([UP, UP, UP, ENTER, DOWN, ENTER, DOWN, ENTER]); // Merger → first model → Save
    const { d, saves } = deps();
    await runFusionModelsCommand(h.ctx, d, notifyOutput);
    expect(h.customOptions).toEqual([
      { overlay: true, overlayOptions: { width: "82%", minWidth: 64, maxHeight: "75%" } },
    ]);
    expect(saves).toEqual([[withSelection(DEFAULT_FUSION_MODELS_CONFIG, "merger", "scripted/a"), "rev-1"]]);
    expect(h.notes.at(-1)?.[1]).toContain("merger scripted/a");
  });

  it("a conflicting save is reported, not retried", async () => {
    const h = harness([DOWN, DOWN, DOWN, DOWN, DOWN, ENTER]);
    const { d, saves } = deps(
      err({ code: "config_conflict", message: "fusion-models.json changed since it was loaded (config_conflict)" }),
    );
    await runFusionModelsCommand(h.ctx, d, notifyOutput);
    expect(saves).toHaveLength(1);
    expect(h.notes).toEqual([["error", "fusion-models.json changed since it was loaded (config_conflict)"]]);
  });

  it("Esc cancels without saving", async () => {
    const h = harness([ESC]);
    const { d, saves } = deps();
    await runFusionModelsCommand(h.ctx, d, notifyOutput);
    expect(saves).toEqual([]);
    expect(h.notes).toEqual([["info", "Fusion models unchanged."]]);
  });

  it("a malformed configuration is reported before any dialog", async () => {
    const h = harness([]);
    const { d } = deps(
      undefined,
      err({ code: "config_invalid", message: "fusion-models.json is invalid (config_invalid)" }),
    );
    await runFusionModelsCommand(h.ctx, d, notifyOutput);
    expect(h.customOptions).toEqual([]);
    expect(h.notes[0]?.[0]).toBe("error");
  });

  it("without the TUI it fails clearly: RPC (custom unsupported) and print mode", async () => {
    const rpc = harness("no-custom");
    await runFusionModelsCommand(rpc.ctx, deps().d, notifyOutput);
    expect(rpc.notes).toEqual([["error", expect.stringContaining("needs the interactive terminal UI")]]);
    const print = harness([], false);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const { d } = deps();
    await runFusionModelsCommand(print.ctx, d, notifyOutput);
    expect(String(stderr.mock.calls[0]?.[0])).toContain("needs the interactive terminal UI");
    stderr.mockRestore();
    expect(d.load).not.toHaveBeenCalled();
  });

  it("maps terminal input onto selector keys", () => {
    expect([keyOf(UP), keyOf(DOWN), keyOf(ENTER), keyOf(ESC), keyOf("\x7f"), keyOf("ab/"), keyOf("\x01")]).toEqual([
      { kind: "up" },
      { kind: "down" },
      { kind: "enter" },
      { kind: "escape" },
      { kind: "backspace" },
      { kind: "text", text: "ab/" },
      undefined,
    ]);
  });
});
