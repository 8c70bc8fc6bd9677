import type { TaskTelemetry } from "../../tasks/model/task-snapshot.ts";
import type { ContextWindowIndex } from "./pi-event-telemetry.ts";
import { judgePiRun } from "./pi-run-verdict.ts";
import {
  createWrappedPiOutput,
  finishWrappedPiOutput,
  ingestWrappedPiChunk,
  wrappedPiTelemetry,
  type WrappedPiOutputState,
  type WrappedPiStep,
} from "./wrapped-pi-output.ts";

/**
 * The stdout side of a wrapped `pi` task as the task runtime uses it (a `StreamFilter`): frames out,
 * transcript in, telemetry refreshed only when it changed. A thin holder of the pure `wrapped-pi-output` state.
 */
export class WrappedPiStdoutFilter {
  private state: WrappedPiOutputState;
  private current: TaskTelemetry | undefined;

  constructor(
    private readonly windows: ContextWindowIndex,
    maxLineBytes?: number,
  ) {
    this.state = createWrappedPiOutput(maxLineBytes);
  }

  push(chunk: Uint8Array): Uint8Array[] {
    return this.take(ingestWrappedPiChunk(this.state, chunk));
  }

  flush(): Uint8Array[] {
    return this.state.finished ? [] : this.take(finishWrappedPiOutput(this.state));
  }

  /** The same object until the stream changes something the snapshot shows. */
  telemetry(): TaskTelemetry | undefined {
    return this.current;
  }

  /**
   * After the stream ended: the Pi run's own failure (a failed or aborted model call, a loop that never
   * finished). A stream without any Pi event (pi never ran, or its stdout went elsewhere) is no verdict.
   */
  failure(): string | undefined {
    if (!this.state.finished) return undefined;
    const verdict = judgePiRun(this.state.telemetry);
    if (verdict.ok || verdict.error.code === "pi_stream_empty") return undefined;
    return `Pi run failed (${verdict.error.code}): ${verdict.error.message}`;
  }

  private take(step: WrappedPiStep): Uint8Array[] {
    this.state = step.state;
    if (step.telemetryChanged) this.current = wrappedPiTelemetry(this.state, this.windows);
    return step.output.length === 0 ? [] : [step.output];
  }
}
