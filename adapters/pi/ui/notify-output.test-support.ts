import type { CommandOutput } from "./command-output.ts";

/** For unit tests with stand-in contexts: every answer goes to `ctx.ui.notify`, or to stderr without a UI. */
export const notifyOutput: CommandOutput = (ctx, message, level) =>
  ctx.hasUI ? ctx.ui.notify(message, level) : void process.stderr.write(`${message}\n`);
