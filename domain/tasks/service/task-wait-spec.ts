import type { Clock, TimerHandle } from "../../../ports/clock.ts";
import { type HostToolSpec, READS_PROJECT, type ToolRunContext } from "../../shared/service/host-tool-spec.ts";
import { err, ok, type TypedError } from "../../shared/model/result.ts";
import { renderNotification, shortTail } from "../model/notification.ts";
import {
  MAX_WAIT_SECONDS,
  DEFAULT_WAIT_SECONDS,
  normalizeWaitArguments,
  WaitArgumentsSchema,
  type WaitRequest,
} from "../model/query-arguments.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import type { RuntimeAccess } from "./task-tool-specs.ts";

/** A typed answer either way: the task ended (final snapshot) or is still running when the wait ran out. */
export type WaitDetails =
  | { readonly outcome: "terminal"; readonly task: TaskSnapshot }
  | { readonly outcome: "still_running"; readonly task: TaskSnapshot; readonly waitedSeconds: number };

export type WaitError = TypedError<"wait_cancelled">;

export interface WaitToolDeps {
  readonly runtime: RuntimeAccess;
  readonly clock: Pick<Clock, "after" | "every">;
  /** How often a long wait reports progress (hosts use it to keep the call alive). */
  readonly progressEveryMs?: number;
}

const PROGRESS_EVERY_MS = 10_000;

/**
 * `bg_wait`: for hosts that cannot wake the agent into a new turn. It blocks on the task's own terminal
 * promise (no polling) up to a bounded time and never stops the task.
 */
export function waitToolSpec(deps: WaitToolDeps): HostToolSpec<WaitRequest, WaitDetails> {
  return {
    name: "bg_wait",
    label: "Background Wait",
    effects: READS_PROJECT,
    description: `Block until a background task ends, for at most timeoutSeconds (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}), and return its final state with its last output lines. If it is still running when the time is up, the answer says so (outcome still_running) and the task keeps running. Use this instead of polling bg_status.`,
    promptSnippet: "Wait (bounded) for a background task to end, instead of polling",
    promptGuidelines: [
      "Call bg_wait only when you need a task's result to continue; do independent work first.",
      "If bg_wait answers still_running, call it again or continue with other work; it never stops the task (bg_kill does).",
    ],
    parameters: WaitArgumentsSchema,
    normalize: normalizeWaitArguments,
    run: (args, context) => waitFor(deps, args, context),
  };
}

async function waitFor(deps: WaitToolDeps, { taskId, timeoutSeconds }: WaitRequest, context: ToolRunContext) {
  const rt = deps.runtime();
  const found = rt.find(taskId);
  if (!found.ok) return found;
  const id = found.value.id;
  const outcome = await raceTerminal(deps, rt.waitForTerminal(id), timeoutSeconds, context, id);
  if (outcome.kind === "cancelled") {
    return err<WaitError>({
      code: "wait_cancelled",
      message: `bg_wait for ${id} was cancelled by the client; the task was not stopped (wait_cancelled).`,
    });
  }
  if (outcome.kind === "timeout") {
    const current = rt.find(id);
    if (!current.ok) return current;
    const task = current.value;
    const text = `Task ${task.name} (${id}) is still running after waiting ${timeoutSeconds} s (outcome: still_running). Nothing was stopped. Call bg_wait again to keep waiting, continue with other work, or stop it with bg_kill.`;
    return ok({ text, details: { outcome: "still_running" as const, task, waitedSeconds: timeoutSeconds } });
  }
  const waited = outcome.result;
  if (!waited.ok) return waited;
  const task = waited.value;
  const tail = await rt.readLog(id, { maxBytes: 2048, tail: true });
  const excerpt = tail.ok ? shortTail(tail.value.text) : "(output could not be read)";
  return ok({ text: renderNotification(task, excerpt).content, details: { outcome: "terminal" as const, task } });
}

type Race<T> =
  | { readonly kind: "ended"; readonly result: T }
  | { readonly kind: "timeout" }
  | { readonly kind: "cancelled" };

function raceTerminal<T>(
  deps: WaitToolDeps,
  terminal: Promise<T>,
  timeoutSeconds: number,
  context: ToolRunContext,
  id: string,
): Promise<Race<T>> {
  if (context.signal?.aborted === true) return Promise.resolve({ kind: "cancelled" });
  return new Promise((resolve, reject) => {
    const timers: TimerHandle[] = [];
    const onAbort = () => settle({ kind: "cancelled" });
    const cleanUp = () => {
      for (const timer of timers) timer.cancel();
      context.signal?.removeEventListener("abort", onAbort);
    };
    const settle = (race: Race<T>) => {
      cleanUp();
      resolve(race);
    };
    timers.push(deps.clock.after(timeoutSeconds * 1000, () => settle({ kind: "timeout" })));
    const progress = context.progress;
    if (progress !== undefined) {
      let waited = 0;
      const every = deps.progressEveryMs ?? PROGRESS_EVERY_MS;
      timers.push(
        deps.clock.every(every, () =>
          progress(`Waiting for ${id}: ${Math.round((waited += every) / 1000)} s of ${timeoutSeconds} s`),
        ),
      );
    }
    context.signal?.addEventListener("abort", onAbort, { once: true });
    terminal.then(
      (result) => settle({ kind: "ended", result }),
      (bug: unknown) => {
        cleanUp();
        reject(bug);
      },
    );
  });
}
