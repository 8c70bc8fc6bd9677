import type { ExitRecord } from "./exit-record.ts";
import { outputLayout } from "./output-layout.ts";
import type { OrphanPolicy } from "./runtime-settings.ts";
import type { KillKind, OutputAccounting, TaskSnapshot } from "./task-snapshot.ts";
import { terminalOutcome, type TerminalOutcome } from "./terminal-outcome.ts";

/**
 * What a new session does with a task whose metadata still says "running": the pure decision and the
 * terminal snapshot it leads to. The facts (is the host alive, is there an exit record, do tagged
 * processes live) are gathered by the caller.
 */

/** Files next to `<id>.json` that the task's supervisor writes. */
export const exitRecordFile = (id: string): string => `${id}.exit.json`;
export const spillFile = (id: string): string => `${id}.after-host.output`;

export interface OrphanFacts {
  readonly hostAlive: boolean;
  /** The supervisor's exit record, when there is a usable one. */
  readonly exit: ExitRecord | undefined;
  /** Why an exit record that exists could not be used. */
  readonly exitProblem?: string;
  /** Live processes that carry the task's tag (0 when it has none). */
  readonly liveProcesses: number;
}

export type RecoveryAction =
  | { readonly kind: "leave"; readonly reason: "not_running" | "host_alive" }
  /** Write the terminal state now; `stopLeftovers`: tagged processes outlived the command. */
  | { readonly kind: "finalize"; readonly stopLeftovers: boolean }
  | { readonly kind: "reattach" }
  | { readonly kind: "kill" };

export function planOrphan(task: TaskSnapshot, facts: OrphanFacts, policy: OrphanPolicy): RecoveryAction {
  if (task.status !== "running") return { kind: "leave", reason: "not_running" };
  if (facts.hostAlive) return { kind: "leave", reason: "host_alive" };
  if (facts.exit !== undefined || facts.liveProcesses === 0) {
    return { kind: "finalize", stopLeftovers: facts.liveProcesses > 0 && task.surviveReload !== true };
  }
  return policy === "kill" || task.processTag === undefined ? { kind: "kill" } : { kind: "reattach" };
}

/** The part of the output file a recovered task shows, and what the supervisor saved after the host. */
export interface RecoveredOutput {
  readonly fileBytes: number;
  /** Leading bytes of the output file that read in order. */
  readonly capturedBytes: number;
  /** The file held a rolling tail the dead host never put in order: only the head is shown. */
  readonly headOnly: boolean;
  readonly spilledBytes: number;
}

/**
 * A file left by a host that let go on purpose is complete (head · marker · tail when capped). One left by
 * a crash is a plain prefix below the cap; at the cap its ring may be out of order, so only the head counts.
 */
export function recoveredOutput(task: TaskSnapshot, fileBytes: number, spilledBytes: number): RecoveredOutput {
  const { capBytes, capAction } = task.output;
  const ringUnordered = task.detachedAt === undefined && capAction === "keep_head_and_tail" && fileBytes >= capBytes;
  const capturedBytes = ringUnordered ? Math.min(fileBytes, outputLayout(capBytes).headBytes) : fileBytes;
  return { fileBytes, capturedBytes, headOnly: ringUnordered, spilledBytes };
}

export type OrphanEnding =
  | { readonly kind: "recorded"; readonly exit: ExitRecord; readonly killKind?: KillKind }
  | { readonly kind: "unknown"; readonly problem?: string; readonly killKind?: KillKind };

export interface TakeOver {
  /** When this host took the task over. */
  readonly at: number;
  readonly now: number;
  /** The task was stopped at takeover because PI_BG_ORPHANS=kill. */
  readonly killedByPolicy?: boolean;
}

/** The snapshot of a reattached task while it still runs: the output it has so far, and who took it over. */
export function reattachedSnapshot(task: TaskSnapshot, output: RecoveredOutput, at: number): TaskSnapshot {
  return { ...task, ...accountingOf(task, output, undefined), recovery: recoveryOf(task, output, at, "unavailable") };
}

/** The durable terminal state of a task whose host ended while it ran. */
export function orphanTerminal(
  task: TaskSnapshot,
  ending: OrphanEnding,
  output: RecoveredOutput,
  takeOver: TakeOver,
): TaskSnapshot {
  const exit = ending.kind === "recorded" ? ending.exit : undefined;
  const outcome: TerminalOutcome =
    takeOver.killedByPolicy === true ? { status: "killed" } : outcomeOf(task, exit, ending.killKind);
  const notes = [outcome.error, hostNote(task, ending, takeOver), outputNote(output, exit, task)].filter(
    (n): n is string => n !== undefined,
  );
  const { remaining: _stillListed, ...rest } = task;
  const tree = exit?.tree;
  return {
    ...rest,
    ...accountingOf(task, output, exit),
    ...(tree === undefined
      ? {}
      : {
          descendants: tree.descendants,
          ...(tree.stopped.length === 0 ? {} : { strays: tree.stopped.length }),
        }),
    status: outcome.status,
    endTime: exit?.endedAt ?? takeOver.now,
    ...(typeof exit?.code === "number" ? { exitCode: exit.code } : {}),
    ...(typeof exit?.signal === "string" ? { signal: exit.signal } : {}),
    ...(ending.killKind === undefined ? {} : { killKind: ending.killKind }),
    error: notes.join("; "),
    recovery: recoveryOf(task, output, takeOver.at, exit?.lostOutputBytes ?? "unavailable"),
  };
}

/** Without an exit record and without a stop of ours nothing is known but that it failed to report. */
function outcomeOf(task: TaskSnapshot, exit: ExitRecord | undefined, killKind: KillKind | undefined): TerminalOutcome {
  if (exit === undefined && killKind === undefined) return { status: "failed" };
  return terminalOutcome({
    code: exit?.code ?? null,
    signal: exit?.signal ?? null,
    ...(killKind === undefined ? {} : { killKind }),
    ...(task.timeoutSeconds === undefined ? {} : { timeoutSeconds: task.timeoutSeconds }),
    capBytes: task.output.capBytes,
    ...(exit?.code === 0 && needsVerification(task)
      ? {
          runFailure:
            "it exited 0, but the host ended before it could verify the run (telemetry, attestation or result checks did not run)",
        }
      : {}),
  });
}

/** Runs whose success needs more than an exit code: without the host nothing checked them. */
function needsVerification(task: TaskSnapshot): boolean {
  return task.isAgent || task.attestedPi !== undefined || task.delegate !== undefined || task.fusion !== undefined;
}

function hostNote(task: TaskSnapshot, ending: OrphanEnding, takeOver: TakeOver): string {
  const host =
    task.detachedAt === undefined
      ? "the Pi host died while this task ran"
      : "the Pi session that started this task ended and left it running (surviveReload)";
  if (takeOver.killedByPolicy === true) {
    return `${host}; it was still running when the next session started and was stopped (PI_BG_ORPHANS=kill)${ending.kind === "recorded" ? "" : "; its exit status is unknown"}`;
  }
  if (ending.kind === "recorded") return `${host}; its exit status was recorded by the supervisor`;
  const problem = ending.problem === undefined ? "" : ` (${ending.problem})`;
  return ending.killKind === undefined
    ? `${host} and the task is gone; exit status unknown${problem}`
    : `${host}; its exit status is unknown${problem}`;
}

function outputNote(output: RecoveredOutput, exit: ExitRecord | undefined, task: TaskSnapshot): string | undefined {
  const parts: string[] = [];
  if (output.headOnly)
    parts.push(
      `the rolling tail of the output file was never put back in order, so only its first ${output.capturedBytes} bytes are shown (${task.container === undefined ? "the raw file keeps the rest" : "the engine's log after them follows in the spill file"})`,
    );
  const spillPath = spillDisplayPath(task);
  if (exit?.hostGone === true) {
    const beyond = exit.lostOutputBytes > 0 ? `; ${exit.lostOutputBytes} bytes beyond the spill cap were not kept` : "";
    parts.push(`output after the host let go: ${exit.spilledBytes} bytes saved in ${spillPath}${beyond}`);
  } else if (output.spilledBytes > 0)
    parts.push(`${output.spilledBytes} bytes of later output were saved in ${spillPath}`);
  else if (exit === undefined && task.detachedAt === undefined)
    parts.push("output after the host died was not captured");
  // Bytes the supervisor had handed to the pipe but the host never read cannot be counted by anyone, unless
  // the host let go in order (it read up to the supervisor's answer); a container's engine keeps its whole log.
  if (task.container === undefined && task.detachedInOrder !== true)
    parts.push(`output still in the pipe when the host ${task.detachedAt === undefined ? "died" : "let go"} is lost`);
  return parts.join("; ");
}

function accountingOf(
  task: TaskSnapshot,
  output: RecoveredOutput,
  exit: ExitRecord | undefined,
): { readonly bytesWritten: number; readonly output: OutputAccounting } {
  const prior = task.detachedAt === undefined ? undefined : task.output;
  // A container's log replays from the engine after the bytes read in order, out-of-order ring bytes included.
  const unread = task.container === undefined ? output.fileBytes - output.capturedBytes : 0;
  const produced = prior?.producedBytes ?? output.capturedBytes + unread;
  const kept = prior?.keptBytes ?? output.capturedBytes;
  const elided = prior?.elidedBytes ?? unread;
  const lost = exit?.lostOutputBytes ?? 0;
  const unwritten = (prior?.unwrittenBytes ?? 0) + lost;
  const producedBytes = produced + output.spilledBytes + lost;
  return {
    bytesWritten: producedBytes,
    output: {
      ...task.output,
      producedBytes,
      keptBytes: kept + output.spilledBytes,
      elidedBytes: elided,
      ...(unwritten > 0 ? { unwrittenBytes: unwritten } : {}),
    },
  };
}

function recoveryOf(
  task: TaskSnapshot,
  output: RecoveredOutput,
  at: number,
  lost: number | "unavailable",
): NonNullable<TaskSnapshot["recovery"]> {
  return {
    at,
    hostEnded: task.detachedAt === undefined ? "died" : "detached",
    spillPath: spillDisplayPath(task),
    spilledBytes: output.spilledBytes,
    lostOutputBytes: lost,
  };
}

function spillDisplayPath(task: TaskSnapshot): string {
  const slash = task.outputPath.lastIndexOf("/");
  return `${slash < 0 ? "" : task.outputPath.slice(0, slash + 1)}${spillFile(task.id)}`;
}
