import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { RuntimeLifecycle } from "../../adapters/pi/runtime-lifecycle.ts";

/**
 * The ExtensionAPI for registrations that reach the task runtime through a synchronous accessor (task tools,
 * task commands, the dock): every tool execution, command and shortcut first waits for the session's runtime
 * to be built. Argument completions answer "none" until it is, since no task can exist before the runtime.
 * Everything else is Pi's own API (prototype delegation, so nothing is copied at load).
 */
export function runtimeGated(pi: ExtensionAPI, lifecycle: RuntimeLifecycle): ExtensionAPI {
  const gated: Pick<ExtensionAPI, "registerTool" | "registerCommand" | "registerShortcut"> = {
    registerTool(tool) {
      pi.registerTool({
        ...tool,
        execute: async (toolCallId, params, signal, onUpdate, ctx) => {
          await lifecycle.ready();
          return tool.execute(toolCallId, params, signal, onUpdate, ctx);
        },
      });
    },
    registerCommand(name, options) {
      const complete = options.getArgumentCompletions;
      pi.registerCommand(name, {
        ...options,
        handler: async (args, ctx) => {
          await lifecycle.ready();
          return options.handler(args, ctx);
        },
        ...(complete === undefined
          ? {}
          : {
              getArgumentCompletions: (prefix: string) => (lifecycle.built() === undefined ? null : complete(prefix)),
            }),
      });
    },
    registerShortcut(shortcut, options) {
      pi.registerShortcut(shortcut, {
        ...options,
        handler: async (ctx) => {
          await lifecycle.ready();
          return options.handler(ctx);
        },
      });
    },
  };
  return Object.assign(Object.create(pi) as ExtensionAPI, gated);
}
