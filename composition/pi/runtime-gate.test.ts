import type {
  ExtensionAPI,
  ExtensionCommandContext,
  ExtensionContext,
  ToolDefinition,
} from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import type { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";
import type { RuntimeLifecycle } from "../../adapters/pi/runtime-lifecycle.ts";
import { runtimeGated } from "./runtime-gate.ts";

type Command = Parameters<ExtensionAPI["registerCommand"]>[1];
type Shortcut = Parameters<ExtensionAPI["registerShortcut"]>[1];

function world() {
  const log: string[] = [];
  const tools: ToolDefinition[] = [];
  const commands = new Map<string, Command>();
  const shortcuts = new Map<string, Shortcut>();
  const pi = {
    registerTool: (tool: ToolDefinition) => tools.push(tool),
    registerCommand: (name: string, options: Command) => commands.set(name, options),
    registerShortcut: (key: string, options: Shortcut) => shortcuts.set(key, options),
    on: (event: string) => log.push(`on ${event}`),
  } as unknown as ExtensionAPI;
  let runtime: TaskRuntime | undefined;
  let failWith: Error | undefined;
  const lifecycle: RuntimeLifecycle = {
    ready: async () => {
      log.push("ready");
      if (failWith !== undefined) throw failWith;
      runtime ??= {} as TaskRuntime;
      return runtime;
    },
    built: () => runtime,
    onBuilt: () => undefined,
  };
  return {
    pi,
    log,
    tools,
    commands,
    shortcuts,
    gated: runtimeGated(pi, lifecycle),
    fail: (error: Error) => (failWith = error),
  };
}

const ctx = {} as ExtensionContext & ExtensionCommandContext;

describe("runtimeGated", () => {
  it("a tool's execution waits for the runtime; its definition is otherwise Pi's as given", async () => {
    const w = world();
    const tool: ToolDefinition = {
      name: "t",
      label: "T",
      description: "d",
      parameters: Type.Object({}),
      execute: async () => {
        w.log.push("execute");
        return { content: [], details: undefined };
      },
    };
    w.gated.registerTool(tool);
    const [registered] = w.tools;
    expect(registered).toMatchObject({ name: "t", label: "T", description: "d", parameters: tool.parameters });
    await registered?.execute("call", {}, undefined, undefined, ctx);
    expect(w.log).toEqual(["ready", "execute"]);
  });

  it("a command and a shortcut run only after the runtime exists; a failure to build it is the command's failure", async () => {
    const w = world();
    w.gated.registerCommand("c", { description: "c", handler: async (args) => void w.log.push(`command ${args}`) });
    w.gated.registerShortcut("ctrl+x", { handler: async () => void w.log.push("shortcut") });
    await w.commands.get("c")?.handler("a", ctx);
    await w.shortcuts.get("ctrl+x")?.handler(ctx);
    expect(w.log).toEqual(["ready", "command a", "ready", "shortcut"]);
    w.fail(Object.assign(new Error("not active"), { code: "session_not_started" }));
    await expect(w.commands.get("c")?.handler("b", ctx)).rejects.toThrow("not active");
    expect(w.log.at(-1)).toBe("ready");
  });

  it("argument completions offer nothing until the runtime is built, then ask the command", async () => {
    const w = world();
    w.gated.registerCommand("logs", {
      handler: async () => undefined,
      getArgumentCompletions: (prefix) => [{ value: `${prefix}1`, label: "one" }],
    });
    w.gated.registerCommand("plain", { handler: async () => undefined });
    expect(w.commands.get("logs")?.getArgumentCompletions?.("t")).toBeNull();
    expect(w.commands.get("plain")?.getArgumentCompletions).toBeUndefined();
    await w.commands.get("logs")?.handler("", ctx);
    expect(w.commands.get("logs")?.getArgumentCompletions?.("t")).toEqual([{ value: "t1", label: "one" }]);
  });

  it("everything else is Pi's own API", () => {
    const w = world();
    w.gated.on("session_start", async () => undefined);
    expect(w.log).toEqual(["on session_start"]);
  });
});
