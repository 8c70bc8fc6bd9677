import type { AutocompleteItem } from "@mariozechner/pi-tui";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { TypedError } from "../../domain/shared/model/result.ts";
import { bgRunRequest } from "../../domain/tasks/model/bg-command-line.ts";
import { LOG_READ_MAX_BYTES } from "../../domain/tasks/model/log-read.ts";
import { renderLogText } from "../../domain/tasks/model/log-text.ts";
import { formatTaskList } from "../../domain/tasks/model/task-list.ts";
import type { TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import type { RuntimeAccess } from "../../domain/tasks/service/task-tool-specs.ts";
import type { CommandOutput } from "./ui/command-output.ts";

const MAX_COMPLETIONS = 20;
const LOGS_USAGE = "/logs <id> [maxBytes]";
const KILL_USAGE = "/kill <id>";

/**
 * A task runtime error as the user of a slash command reads it. The runtime words its next steps for the
 * model (tool names); here they name the commands the user types: `usage` is the command's own synopsis
 * and `typed` the task id as the user typed it. Errors that name no tool are shown as they are.
 */
function commandErrorText(error: TypedError, typed: string, usage: string): string {
  switch (error.code) {
    case "task_id_required":
      return `Task ID is required (task_id_required). Usage: ${usage}; list tasks with /jobs.`;
    case "task_unknown":
      return `Unknown background task ID: ${typed.trim()} (task_unknown). List tasks with /jobs.`;
    default:
      return error.message;
  }
}

function completions(tasks: TaskSnapshot[], prefix: string): AutocompleteItem[] | null {
  const items = tasks
    .filter((t) => t.id.startsWith(prefix.trim()))
    .slice(0, MAX_COMPLETIONS)
    .map((t) => ({ value: t.id, label: `${t.id}  ${t.status}  ${t.name}` }));
  return items.length > 0 ? items : null;
}

export function registerTaskCommands(pi: ExtensionAPI, runtime: RuntimeAccess, show: CommandOutput): void {
  pi.registerCommand("bg", {
    description:
      "Run a shell command as a background task: /bg [--agent|--no-agent] [--name NAME] [--survive-reload] [--] <command>",
    handler: async (args, ctx) => {
      const request = bgRunRequest(args);
      if (!request.ok) return show(ctx, request.error.message, "error");
      const started = await runtime().start(request.value);
      if (!started.ok) return show(ctx, started.error.message, "error");
      const t = started.value;
      show(ctx, `Started ${t.name} (${t.id})\nOutput: ${t.outputPath}\nCommand: ${t.command}`, "info");
    },
  });

  pi.registerCommand("jobs", {
    description: "List background tasks",
    handler: async (_args, ctx) => show(ctx, formatTaskList(runtime().list(), Date.now()), "info"),
  });

  pi.registerCommand("logs", {
    description: `Show the tail of a task's output: /logs <id> [maxBytes ≤ ${LOG_READ_MAX_BYTES}]`,
    getArgumentCompletions: (prefix) => completions(runtime().list(), prefix),
    handler: async (args, ctx) => {
      const [id = "", size] = args.trim().split(/\s+/);
      const maxBytes = size === undefined ? LOG_READ_MAX_BYTES : Number(size);
      if (!Number.isFinite(maxBytes) || maxBytes < 1)
        return show(ctx, `maxBytes must be a positive number. Usage: ${LOGS_USAGE}`, "error");
      const slice = await runtime().readLog(id, {
        maxBytes: Math.min(LOG_READ_MAX_BYTES, Math.floor(maxBytes)),
        tail: true,
      });
      if (!slice.ok) return show(ctx, commandErrorText(slice.error, id, LOGS_USAGE), "error");
      const { task, plan } = slice.value;
      show(
        ctx,
        `${task.name} (${task.id}) — ${task.status}\n${renderLogText(slice.value.text, plan, task.outputPath, task.status === "running", slice.value.invalid)}`,
        "info",
      );
    },
  });

  pi.registerCommand("kill", {
    description: `Stop a running background task: ${KILL_USAGE}`,
    getArgumentCompletions: (prefix) =>
      completions(
        runtime()
          .list()
          .filter((t) => t.status === "running"),
        prefix,
      ),
    handler: async (args, ctx) => {
      const killed = await runtime().kill(args);
      if (!killed.ok) return show(ctx, commandErrorText(killed.error, args, KILL_USAGE), "error");
      show(ctx, `Killed ${killed.value.name} (${killed.value.id}). Output: ${killed.value.outputPath}`, "info");
    },
  });
}
