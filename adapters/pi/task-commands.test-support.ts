import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { registerTaskCommands } from "./task-commands.ts";
import { world } from "./task-fuzz.test-support.ts";
import { notifyOutput } from "./ui/notify-output.test-support.ts";

// Shared by the task command tests: the runtime world of task-fuzz.test-support.ts with the task commands
// registered on a stand-in Pi, and every notice a command shows through the UI.

export interface Note {
  readonly message: string;
  readonly level: string;
}

export type CommandHandler = (args: string, ctx: ExtensionCommandContext) => Promise<void>;

export async function commandWorld() {
  const w = await world();
  const handlers = new Map<string, CommandHandler>();
  const pi = {
    registerCommand: (name: string, options: { handler: CommandHandler }) => handlers.set(name, options.handler),
  };
  registerTaskCommands(pi as unknown as ExtensionAPI, () => w.runtime, notifyOutput);
  const notes: Note[] = [];
  const ctx = {
    hasUI: true,
    ui: { notify: (message: string, level: string) => notes.push({ message, level }) },
  } as unknown as ExtensionCommandContext;
  const run = async (command: string, args: string) => {
    const handler = handlers.get(command);
    if (handler === undefined) throw new Error(`/${command} is not registered`);
    await handler(args, ctx);
  };
  return { ...w, handlers, notes, ctx, run };
}
