import type { ToolDefinition } from "@mariozechner/pi-coding-agent";
import { ok } from "../../domain/shared/model/result.ts";
import { renderLogText } from "../../domain/tasks/model/log-text.ts";
import { KillArgumentsSchema, LogsArgumentsSchema, normalizeKillArguments, normalizeLogsArguments, normalizeStatusArguments, StatusArgumentsSchema } from "../../domain/tasks/model/query-arguments.ts";
import { normalizeRunArguments, RunArgumentsSchema } from "../../domain/tasks/model/run-request.ts";
import { formatTaskList } from "../../domain/tasks/model/task-list.ts";
import type { TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import type { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";
import { defineTool } from "./define-tool.ts";

export type RuntimeAccess = () => TaskRuntime;

const text = (value: string) => [{ type: "text" as const, text: value }];

export function launchReceipt(task: TaskSnapshot): string {
  const notice = task.notifyOnCompletion ? "Terminal notification: enabled." : "Terminal notification: disabled (notifyOnCompletion: false); check with bg_status when needed.";
  const wake = !task.notifyOnCompletion
    ? "Automatic follow-up turn: disabled."
    : task.triggerOnCompletion
      ? "Automatic follow-up turn: enabled — the notification will start a new agent turn when the task ends."
      : "Automatic follow-up turn: disabled — the notification is shown but will not start an agent turn.";
  return [
    `Started background task ${task.name} (${task.id})`,
    `Status: ${task.status}${task.error ? ` — ${task.error}` : ""}`,
    `PID: ${task.pid ?? "none"}`,
    `Output path: ${task.outputPath}`,
    ...(task.isAgent ? [agentTelemetryLine(task)] : []),
    notice,
    wake,
    task.notifyOnCompletion
      ? "Next action: do not poll or sleep waiting for this task. Continue with independent work or end your turn; you will be notified when it ends."
      : "Next action: continue with other work; read its output with bg_logs when you need it.",
  ].join("\n");
}

function agentTelemetryLine(task: TaskSnapshot): string {
  return task.telemetryUnavailableReason === undefined
    ? "Agent telemetry: on (tokens, context use and tool counts show in bg_status while it runs; the output file is a readable transcript)."
    : `Agent telemetry: unavailable (${task.telemetryUnavailableReason}); the output is the command's own.`;
}

export function taskTools(runtime: RuntimeAccess): ToolDefinition[] {
  return [
    defineTool({
      name: "bg_run",
      label: "Background Run",
      description:
        "Start a named shell command in the background and return at once. Its output goes to a durable file; when it ends you get a notification (by default it starts a new turn). Never poll or sleep for it.",
      promptSnippet: "Start a long-running shell command in the background (tests, builds, servers, agents)",
      promptGuidelines: [
        "Use bg_run for commands that take longer than a few seconds or keep running (builds, test suites, dev servers, `pi -p` agents).",
        "After bg_run, do not poll with bg_status, bg_logs or sleep: continue with independent work or end your turn; the completion notification wakes you.",
        "Set isAgent: true only when the command launches an LLM agent (for example `pi -p ...`); otherwise isAgent: false.",
      ],
      parameters: RunArgumentsSchema,
      normalize: normalizeRunArguments,
      run: async (args) => {
        const started = await runtime().start(args);
        return started.ok ? ok({ content: text(launchReceipt(started.value)), details: { task: started.value } }) : started;
      },
    }),
    defineTool({
      name: "bg_status",
      label: "Background Status",
      description: "Show one background task (id or unambiguous prefix) or all recent tasks. Not a waiting primitive: completion is notified.",
      promptSnippet: "Inspect background tasks (not for waiting: completions are notified)",
      parameters: StatusArgumentsSchema,
      normalize: normalizeStatusArguments,
      run: async ({ taskId }) => {
        const rt = runtime();
        if (taskId === undefined) {
          const tasks = rt.list();
          return ok({ content: text(formatTaskList(tasks, Date.now())), details: { tasks } });
        }
        const found = rt.find(taskId);
        return found.ok ? ok({ content: text(formatTaskList([found.value], Date.now())), details: { tasks: [found.value] } }) : found;
      },
    }),
    defineTool({
      name: "bg_logs",
      label: "Background Logs",
      description: "Read a bounded slice of a background task's output: the tail by default, the head with tail:false, or from a byte offset for delta reads (returns the next offset).",
      promptSnippet: "Read a bounded slice of a background task's output",
      parameters: LogsArgumentsSchema,
      normalize: normalizeLogsArguments,
      run: async ({ taskId, ...request }) => {
        const slice = await runtime().readLog(taskId, request);
        if (!slice.ok) return slice;
        const { task, plan, bytesRead } = slice.value;
        const body = renderLogText(slice.value.text, plan, task.outputPath, task.status === "running");
        return ok({
          content: text(body),
          details: { task, path: task.outputPath, bytesRead, truncated: plan.partial || plan.elidedInWindow > 0, tail: request.tail, nextOffset: plan.nextOffset, elidedBytes: plan.elidedInWindow },
        });
      },
    }),
    defineTool({
      name: "bg_kill",
      label: "Background Kill",
      description: "Stop a running background task and its whole process group (SIGTERM, then SIGKILL after a grace period).",
      promptSnippet: "Stop a running background task",
      parameters: KillArgumentsSchema,
      normalize: normalizeKillArguments,
      run: async ({ taskId }) => {
        const killed = await runtime().kill(taskId);
        if (!killed.ok) return killed;
        const task = killed.value;
        const message = `Killed background task ${task.name} (${task.id}). Status: ${task.status}. Output: ${task.outputPath}`;
        return ok({ content: text(message), details: { task, message } });
      },
    }),
  ];
}
