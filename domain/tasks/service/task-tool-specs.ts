import {
  type AnyHostToolSpec,
  type HostToolSpec,
  READS_PROJECT,
  RUNS_ANYTHING,
  STOPS_TASKS,
} from "../../shared/service/host-tool-spec.ts";
import { ok } from "../../shared/model/result.ts";
import { launchReceipt, type CompletionDelivery } from "../model/launch-receipt.ts";
import type { LogReadPlan } from "../model/log-read.ts";
import { renderLogText } from "../model/log-text.ts";
import {
  KillArgumentsSchema,
  LogsArgumentsSchema,
  normalizeKillArguments,
  normalizeLogsArguments,
  normalizeStatusArguments,
  StatusArgumentsSchema,
} from "../model/query-arguments.ts";
import { normalizeRunArguments, RunArgumentsSchema, type RunRequest } from "../model/run-request.ts";
import { formatTaskList } from "../model/task-list.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import type { TaskRuntime } from "./task-runtime.ts";

/** The runtime of the current session; hosts without one yet throw their own "not started" failure. */
export type RuntimeAccess = () => TaskRuntime;

export interface TaskToolDeps {
  readonly runtime: RuntimeAccess;
  /** Wall-clock milliseconds, for the ages bg_status shows. */
  readonly now: () => number;
  readonly delivery: CompletionDelivery;
}

export interface LogsDetails {
  readonly task: TaskSnapshot;
  readonly path: string;
  readonly bytesRead: number;
  readonly truncated: boolean;
  readonly tail: boolean;
  readonly nextOffset: number;
  readonly elidedBytes: number;
}

/** The words that differ between hosts: how the end of a task reaches the agent. */
const WORDING: Record<CompletionDelivery, { run: string; runAfter: string; status: string; statusSnippet: string }> = {
  agent_turn: {
    run: "Start a named shell command in the background and return at once. Its output goes to a durable file; when it ends you get a notification (by default it starts a new turn). Never poll or sleep for it.",
    runAfter:
      "After bg_run, do not poll with bg_status, bg_logs or sleep: continue with independent work or end your turn; the completion notification wakes you.",
    status:
      "Show one background task (id or unambiguous prefix) or all recent tasks. Not a waiting primitive: completion is notified.",
    statusSnippet: "Inspect background tasks (not for waiting: completions are notified)",
  },
  notification_and_wait: {
    run: "Start a named shell command in the background and return at once. Its output goes to a durable file; when it ends the server sends a notification with its final state, and bg_wait blocks until it ends. Never poll or sleep for it. (triggerOnCompletion has no effect here: no new turn can be started.)",
    runAfter:
      "After bg_run, do not poll with bg_status, bg_logs or sleep: continue with independent work, then call bg_wait when you need the result.",
    status:
      "Show one background task (id or unambiguous prefix) or all recent tasks. Not a waiting primitive: use bg_wait to block until a task ends.",
    statusSnippet: "Inspect background tasks (to wait for one, use bg_wait)",
  },
};

export function runToolSpec({ runtime, delivery }: TaskToolDeps): HostToolSpec<RunRequest, { task: TaskSnapshot }> {
  return {
    name: "bg_run",
    label: "Background Run",
    effects: RUNS_ANYTHING,
    description: WORDING[delivery].run,
    promptSnippet: "Start a long-running shell command in the background (tests, builds, servers, agents)",
    promptGuidelines: [
      "Use bg_run for commands that take longer than a few seconds or keep running (builds, test suites, dev servers, `pi -p` agents).",
      WORDING[delivery].runAfter,
      "Set isAgent: true only when the command launches an LLM agent (for example `pi -p ...`); otherwise isAgent: false.",
    ],
    parameters: RunArgumentsSchema,
    normalize: normalizeRunArguments,
    run: async (args) => {
      const started = await runtime().start(args);
      return started.ok
        ? ok({ text: launchReceipt(started.value, delivery), details: { task: started.value } })
        : started;
    },
  };
}

export function statusToolSpec({
  runtime,
  now,
  delivery,
}: TaskToolDeps): HostToolSpec<{ taskId?: string }, { tasks: TaskSnapshot[] }> {
  return {
    name: "bg_status",
    label: "Background Status",
    effects: READS_PROJECT,
    description: WORDING[delivery].status,
    promptSnippet: WORDING[delivery].statusSnippet,
    parameters: StatusArgumentsSchema,
    normalize: normalizeStatusArguments,
    run: async ({ taskId }) => {
      const rt = runtime();
      if (taskId === undefined) {
        const tasks = rt.list();
        return ok({ text: formatTaskList(tasks, now()), details: { tasks } });
      }
      const found = rt.find(taskId);
      return found.ok ? ok({ text: formatTaskList([found.value], now()), details: { tasks: [found.value] } }) : found;
    },
  };
}

export function logsToolSpec({
  runtime,
}: TaskToolDeps): HostToolSpec<{ taskId: string; maxBytes: number; tail: boolean; offset?: number }, LogsDetails> {
  return {
    name: "bg_logs",
    label: "Background Logs",
    effects: READS_PROJECT,
    description:
      "Read a bounded slice of a background task's output: the tail by default, the head with tail:false, or from a byte offset for delta reads (returns the next offset).",
    promptSnippet: "Read a bounded slice of a background task's output",
    parameters: LogsArgumentsSchema,
    normalize: normalizeLogsArguments,
    run: async ({ taskId, ...request }) => {
      const slice = await runtime().readLog(taskId, request);
      if (!slice.ok) return slice;
      const { task, plan, bytesRead } = slice.value;
      const text = renderLogText(
        slice.value.text,
        plan,
        task.outputPath,
        task.status === "running",
        slice.value.invalid,
      );
      return ok({ text, details: logsDetails(task, plan, bytesRead, request.tail) });
    },
  };
}

function logsDetails(task: TaskSnapshot, plan: LogReadPlan, bytesRead: number, tail: boolean): LogsDetails {
  return {
    task,
    path: task.outputPath,
    bytesRead,
    truncated: plan.partial || plan.elidedInWindow > 0,
    tail,
    nextOffset: plan.nextOffset,
    elidedBytes: plan.elidedInWindow,
  };
}

export function killToolSpec({
  runtime,
}: TaskToolDeps): HostToolSpec<{ taskId: string }, { task: TaskSnapshot; message: string }> {
  return {
    name: "bg_kill",
    label: "Background Kill",
    effects: STOPS_TASKS,
    description:
      "Stop a running background task and its whole process group (SIGTERM, then SIGKILL after a grace period).",
    promptSnippet: "Stop a running background task",
    parameters: KillArgumentsSchema,
    normalize: normalizeKillArguments,
    run: async ({ taskId }) => {
      const killed = await runtime().kill(taskId);
      if (!killed.ok) return killed;
      const task = killed.value;
      const message = `Killed background task ${task.name} (${task.id}). Status: ${task.status}. Output: ${task.outputPath}`;
      return ok({ text: message, details: { task, message } });
    },
  };
}

/** bg_run, bg_status, bg_logs, bg_kill, in that order, worded for the host's way of delivering completions. */
export function taskToolSpecs(deps: TaskToolDeps): AnyHostToolSpec[] {
  return [runToolSpec(deps), statusToolSpec(deps), logsToolSpec(deps), killToolSpec(deps)];
}
