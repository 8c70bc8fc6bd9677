import type { ResultDelivery } from "../../shared/model/result-delivery.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import type { ToolCall } from "../../shared/service/host-tool-spec.ts";
import { InProcessWork } from "../../tasks/service/in-process-work.ts";
import type { TaskRuntime } from "../../tasks/service/task-runtime.ts";
import type { DelegateHost, DelegatePorts } from "./delegate-ports.ts";
import type { DelegateLaunchReceipt } from "../model/launch-receipt.ts";
import type { DelegateResultView } from "../model/delegate-result-view.ts";
import { launchDelegate, type DelegateHandle } from "./launch-delegate.ts";
import { retrieveAdjudicatedResult, retrieveDelegateResult } from "./retrieve-delegate-result.ts";
import type { HostSession } from "../../../ports/host-session.ts";

/** The ids `launch` gives: `d` and 16 random bytes in hex. */
const DELEGATE_TASK_ID = /^d[0-9a-f]{32}$/;

/**
 * Delegated background agents of a host with sessions. Each delegate is a tracked task whose work is the
 * supervised child: the task ends when the child's outcome is adjudicated, stopping the task cancels
 * the child, and bg_result reads the verified package through the handle kept here.
 */
export class DelegateRuns {
  private readonly handles = new Map<string, DelegateHandle>();

  constructor(
    private readonly ports: Omit<DelegatePorts, "conversation">,
    /** The Pi a delegate runs on, read at each launch (the CLI may be installed meanwhile). */
    private readonly host: () => DelegateHost,
    /** The host process's pid, recorded in every run directory's name. */
    private readonly pid: number,
  ) {}

  async launch(
    rawArguments: unknown,
    { toolCallId, session }: ToolCall,
    runtime: TaskRuntime,
  ): Promise<Result<DelegateLaunchReceipt, TypedError>> {
    const ports: DelegatePorts = { ...this.ports, conversation: session.conversation };
    const current = session.currentModel();
    const launched = await launchDelegate(ports, {
      rawArguments,
      toolCallId,
      location: { baseDir: session.cwd, sessionId: session.sessionId, pid: this.pid },
      currentRoute: current === undefined ? undefined : { provider: current.provider, model: current.id },
      availableModels: session.availableModels().map((m) => ({
        provider: m.provider,
        model: m.id,
        contextWindow: m.contextWindow > 0 ? m.contextWindow : undefined,
      })),
      host: this.host(),
      taskId: `d${this.ports.random.hex(16)}`,
    });
    if (!launched.ok) return launched;
    const { receipt, handle } = launched.value;
    this.handles.set(handle.taskId, handle);
    const work = new InProcessWork(handle.pid, async (signal, log) => {
      signal.addEventListener("abort", () => void handle.cancel(), { once: true });
      log(
        `delegate ${handle.taskId} running on ${receipt.route.provider}/${receipt.route.model} (child pid ${handle.pid})`,
      );
      const outcome = await handle.whenDone();
      log(`delegate ended: ${outcome.state}`);
      return outcome.state === "completed"
        ? ok({})
        : err({
            message:
              outcome.error === null
                ? `the delegate ended ${outcome.state}`
                : `${outcome.error.message} (${outcome.error.code})`,
          });
    });
    const request = {
      name: receipt.name,
      command: `bg_delegate: ${receipt.name}`,
      isAgent: true,
      notifyOnCompletion: receipt.notify_on_completion,
      triggerOnCompletion: receipt.trigger_on_completion,
      onOutputCap: "keep_head_and_tail" as const,
    };
    const started = await runtime.start(request, {
      command: { kind: "shell", command: request.command },
      id: handle.taskId,
      start: () => ok(work),
      completion: work.completion(),
      facets: {
        delegate: {
          artifactDir: handle.artifactDir,
          route: `${receipt.route.provider}/${receipt.route.model}`,
          childSessionId: receipt.child_session_id,
        },
      },
    });
    if (!started.ok) {
      await handle.cancel();
      return started;
    }
    return ok(receipt);
  }

  /** True when the task id belongs to a delegate of this parent, or has the form of one an earlier parent launched. */
  owns(taskId: string): boolean {
    return this.handles.has(taskId) || DELEGATE_TASK_ID.test(taskId);
  }

  /**
   * A delegate this parent launched is served against the hashes it pinned in memory; one of an earlier parent
   * (before a reload, or another Pi process in the project) only from the adjudication record that parent
   * committed.
   */
  result(
    taskId: string,
    delivery: ResultDelivery | undefined,
    session?: Pick<HostSession, "cwd" | "sessionId">,
  ): Promise<Result<DelegateResultView, TypedError>> {
    const handle = this.handles.get(taskId);
    if (handle !== undefined || session === undefined)
      return retrieveDelegateResult(this.ports.files, taskId, handle, delivery);
    const location = { baseDir: session.cwd, sessionId: session.sessionId, pid: this.pid };
    return retrieveAdjudicatedResult(this.ports.files, taskId, location, delivery);
  }

  async shutdown(): Promise<void> {
    await Promise.all([...this.handles.values()].filter((h) => h.isRunning()).map((h) => h.cancel()));
  }
}
