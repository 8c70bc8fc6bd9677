import type { TaskSnapshot } from "./task-snapshot.ts";

/** Which tool started a task; only a shell task's `command` is a shell command (the others' is a label). */
export type TaskKind = "shell" | "attested_pi" | "delegate" | "fusion";

const STARTED_BY: Record<Exclude<TaskKind, "shell">, string> = {
  attested_pi: "bg_run_pi_attested",
  delegate: "bg_delegate",
  fusion: "fusion_validate",
};

export function taskKind(task: TaskSnapshot): TaskKind {
  if (task.attestedPi !== undefined) return "attested_pi";
  if (task.delegate !== undefined) return "delegate";
  if (task.fusion !== undefined) return "fusion";
  return "shell";
}

/**
 * Why the dock's rerun must not start `task` again, or undefined for a shell task (bg_run, /bg). The
 * others' command line is a display label holding model-chosen text, never to be run through a shell, and
 * their inputs (a prompt, a conversation, review arguments) are not kept to start them again.
 */
export function rerunRefusal(task: TaskSnapshot): string | undefined {
  const kind = taskKind(task);
  if (kind === "shell") return undefined;
  return `${task.id} was started by ${STARTED_BY[kind]}, not as a shell command, so it cannot be rerun from the dock; nothing was started. Ask the agent to call ${STARTED_BY[kind]} again.`;
}

/** Whether `task` can report agent telemetry (model, context, tokens, tools): an agent, delegate or attested run. */
export function reportsTelemetry(task: TaskSnapshot): boolean {
  const kind = taskKind(task);
  return task.isAgent || kind === "attested_pi" || kind === "delegate";
}
