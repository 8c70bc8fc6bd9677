import type { ContainerFacts, TaskSnapshot } from "./task-snapshot.ts";

/**
 * How a host tells the agent that a task ended. Pi queues a message that starts a new agent turn; an MCP
 * client cannot be woken into a turn, so it gets a notification and waits with `bg_wait`.
 */
export type CompletionDelivery = "agent_turn" | "notification_and_wait";

/** The text bg_run answers with: what was started, where its output goes, and what to do next. */
export function launchReceipt(task: TaskSnapshot, delivery: CompletionDelivery = "agent_turn"): string {
  return [
    `Started background task ${task.name} (${task.id})`,
    `Status: ${task.status}${task.error ? ` — ${task.error}` : ""}`,
    `PID: ${task.pid ?? "none"}${task.container === undefined ? "" : " (the container's init, on the engine's machine)"}`,
    ...(task.container === undefined ? [] : [containerLine(task.container)]),
    `Output path: ${task.outputPath}`,
    ...(task.isAgent ? [agentTelemetryLine(task)] : []),
    ...(task.surviveReload === true
      ? [
          "Survives reload: yes — it keeps running when this Pi session reloads or exits, and the next session in this project reattaches it; stop it with bg_kill.",
        ]
      : []),
    ...(delivery === "agent_turn" ? agentTurnLines(task) : waitLines(task)),
  ].join("\n");
}

function agentTurnLines(task: TaskSnapshot): string[] {
  const notice = task.notifyOnCompletion
    ? "Terminal notification: enabled."
    : "Terminal notification: disabled (notifyOnCompletion: false); check with bg_status when needed.";
  const wake = !task.notifyOnCompletion
    ? "Automatic follow-up turn: disabled."
    : task.triggerOnCompletion
      ? "Automatic follow-up turn: enabled — the notification will start a new agent turn when the task ends."
      : "Automatic follow-up turn: disabled — the notification is shown but will not start an agent turn.";
  const next = task.notifyOnCompletion
    ? "Next action: do not poll or sleep waiting for this task. Continue with independent work or end your turn; you will be notified when it ends."
    : "Next action: continue with other work; read its output with bg_logs when you need it.";
  return [notice, wake, next];
}

function waitLines(task: TaskSnapshot): string[] {
  return [
    task.notifyOnCompletion
      ? "Terminal notification: enabled (an MCP logging notification carrying the final snapshot)."
      : "Terminal notification: disabled (notifyOnCompletion: false).",
    "Automatic follow-up turn: not available over MCP.",
    `Next action: do not poll with bg_status or sleep. Continue with independent work; when you need the result, call bg_wait {"taskId":"${task.id}"}, which blocks until the task ends (bounded by its timeoutSeconds).`,
  ];
}

function agentTelemetryLine(task: TaskSnapshot): string {
  return task.telemetryUnavailableReason === undefined
    ? "Agent telemetry: on (tokens, context use and tool counts show in bg_status while it runs; the output file is a readable transcript)."
    : `Agent telemetry: unavailable (${task.telemetryUnavailableReason}); the output is the command's own.`;
}

function containerLine(c: ContainerFacts): string {
  const tree =
    c.tree === "bind"
      ? "the project directory is mounted at the same path"
      : "the engine is remote, so the project directory was copied to the same path there (without .pi/): what the command changes stays in the container and is removed with it";
  return `Runs in: a ${c.runOn === "docker" ? "container" : "Swarm job"} of image ${c.image} (${c.imageId}) on ${c.engine}, as your user, ${c.network === true ? "with a network" : "without a network"} and without your environment; ${tree}. Nothing outlives the command there: when it exits, the container ends.`;
}
