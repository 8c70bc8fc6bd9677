import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { Component } from "@mariozechner/pi-tui";
import { describe, expect, it, vi } from "vitest";
import { COMMAND_OUTPUT_TYPE, hostMode, registerCommandOutput, stackedLines } from "./command-output.ts";

type Widget = (() => Component) | undefined;

/** A stand-in Pi, with or without entry renderers (Pi 1.x has them, 0.73.1 does not), and one context. */
function host(options: { entries: boolean; mode: "tui" | "rpc" | "print" }) {
  const appended: unknown[] = [];
  const notes: Array<[string, string]> = [];
  const widgets: Widget[] = [];
  const handlers = new Map<string, () => Promise<unknown>>();
  let renderer: ((entry: { data?: unknown }) => Component | undefined) | undefined;
  const pi = {
    appendEntry: (type: string, data: unknown) => appended.push([type, data]),
    on: (event: string, handler: () => Promise<unknown>) => void handlers.set(event, handler),
    ...(options.entries ? { registerEntryRenderer: (_type: string, r: typeof renderer) => void (renderer = r) } : {}),
  } as unknown as ExtensionAPI;
  const ctx = {
    hasUI: options.mode !== "print",
    mode: options.mode,
    ui: {
      notify: (message: string, level: string) => notes.push([level, message]),
      setWidget: (key: string, content: Widget) => key === COMMAND_OUTPUT_TYPE && widgets.push(content),
    },
  } as unknown as ExtensionContext;
  const output = registerCommandOutput(pi);
  const screen = () => widgets.at(-1)?.().render(80).join("\n").trim();
  return { output, ctx, appended, notes, widgets, handlers, screen, render: () => renderer };
}

describe("command output", () => {
  it("Pi with entry renderers: information becomes a display-only entry; errors stay notifications", () => {
    const h = host({ entries: true, mode: "tui" });
    h.output(h.ctx, "No background tasks.", "info");
    h.output(h.ctx, "Unknown background task ID: x", "error");
    expect(h.appended).toEqual([[COMMAND_OUTPUT_TYPE, { text: "No background tasks." }]]);
    expect(h.notes).toEqual([["error", "Unknown background task ID: x"]]);
    expect(h.handlers.has("input")).toBe(false);
    expect(
      h
        .render()?.({ data: { text: "listing" } })
        ?.render(40)
        .join("")
        .trim(),
    ).toBe("listing");
    expect(h.render()?.({ data: { text: 42 } })).toBeUndefined(); // an entry read back from a session file is checked
  });

  it("Pi without entry renderers: a widget keeps every answer since the last prompt, cleared by the next prompt", async () => {
    const h = host({ entries: false, mode: "tui" });
    h.output(h.ctx, "b0 running sleep", "info");
    h.output(h.ctx, "Started build (b1)", "info");
    expect(h.screen()).toMatch(/b0 running sleep\s+Started build \(b1\)/);
    expect(await h.handlers.get("input")?.()).toEqual({ action: "continue" });
    expect(h.widgets.at(-1)).toBeUndefined();
    h.output(h.ctx, "Killed build (b1).", "info");
    expect(h.screen()).toBe("Killed build (b1).");
    expect(h.appended).toEqual([]);
  });

  it("RPC clients get notifications, print and json modes stderr", () => {
    const rpc = host({ entries: true, mode: "rpc" });
    rpc.output(rpc.ctx, "listing", "info");
    expect(rpc.notes).toEqual([["info", "listing"]]);
    expect(rpc.appended).toEqual([]);
    const print = host({ entries: true, mode: "print" });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    print.output(print.ctx, "listing", "info");
    expect(stderr.mock.calls).toEqual([["listing\n"]]);
    stderr.mockRestore();
  });

  it("the widget keeps the newest lines and says when older ones are not shown", () => {
    expect(stackedLines(["a", "b\nc"], 5)).toEqual(["a", "", "b", "c"]);
    const many = stackedLines(["1\n2\n3", "4\n5"], 4);
    expect(many).toEqual(["… earlier output not shown (/jobs and /logs show it again)", "", "4", "5"]);
  });
});

function context(hasUI: boolean, themes: number, mode?: string): ExtensionContext {
  const ui = { getAllThemes: () => Array.from({ length: themes }, (_, i) => ({ name: `t${i}`, path: undefined })) };
  return { hasUI, ui, ...(mode === undefined ? {} : { mode }) } as unknown as ExtensionContext;
}

describe("hostMode", () => {
  it("takes the mode Pi 1.x declares, whatever the theme list says", () => {
    expect(hostMode(context(true, 0, "tui"))).toBe("tui");
    expect(hostMode(context(true, 2, "rpc"))).toBe("rpc");
    expect(hostMode(context(false, 2, "json"))).toBe("none");
    expect(hostMode(context(false, 2, "print"))).toBe("none");
  });

  it("on Pi 0.73.1 (no ctx.mode) tells RPC from the terminal by the theme list, and no UI is none", () => {
    expect(hostMode(context(true, 0))).toBe("rpc");
    expect(hostMode(context(true, 2))).toBe("tui");
    expect(hostMode(context(false, 2))).toBe("none");
  });
});
