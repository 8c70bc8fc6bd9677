import {
  buildToolAuditRecord,
  toolAuditLine,
  type ToolCallObservation,
} from "../../../domain/fusion/model/tool-audit-record.ts";

/** The parts of Pi's tool events the audit reads (plain data, so the tracker is testable without Pi). */
export interface CallStarted {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: unknown;
}

export interface CallFinished {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: unknown;
  readonly details: unknown;
  readonly isError: boolean;
}

export interface Withheld {
  readonly isError: true;
  readonly content: { type: "text"; text: string }[];
}

interface Pending {
  readonly args: unknown;
  readonly startedAt: number;
  executingAt?: number;
}

/**
 * Turns Pi's tool events into audit lines, one per call, numbered in the order the calls complete.
 *
 * A call that executes is written from `tool_result` (awaited by Pi before the result reaches the model),
 * so the line is durable before the model sees the result. A call that never executes (unknown tool,
 * invalid arguments, blocked) has no `tool_result`; it is written from `tool_execution_end`. Arguments are
 * the model's raw arguments from `tool_execution_start`.
 *
 * When a line cannot be written the audit is broken: that call's result is withheld from the model and
 * every later call is blocked, so no tool runs unaudited.
 */
export class ToolAuditTracker {
  private readonly pending = new Map<string, Pending>();
  private readonly written = new Set<string>();
  private ordinal = 0;
  private failure: string | undefined;

  constructor(
    private readonly append: (line: string) => void,
    private readonly now: () => number,
    private readonly report: (message: string) => void,
  ) {}

  get broken(): string | undefined {
    return this.failure;
  }

  get recorded(): number {
    return this.ordinal;
  }

  started(event: CallStarted): void {
    this.pending.set(event.toolCallId, { args: event.args, startedAt: this.now() });
  }

  /** `tool_call`: returns a block reason once the audit is broken. */
  executing(toolCallId: string): string | undefined {
    const pending = this.pending.get(toolCallId);
    if (pending !== undefined) pending.executingAt = this.now();
    return this.failure === undefined
      ? undefined
      : `tool-call audit log is broken (${this.failure}); no further tool calls may run`;
  }

  /** `tool_result`: writes the line; returns a replacement result when it could not be written. */
  finished(event: CallFinished): Withheld | undefined {
    const pending = this.pending.get(event.toolCallId);
    const started = pending?.executingAt ?? pending?.startedAt;
    this.written.add(event.toolCallId);
    const ok = this.write(this.observation(event, pending, started));
    if (ok) return undefined;
    return {
      isError: true,
      content: [
        {
          type: "text",
          text: `The result was withheld: the tool-call audit log could not be written (${this.failure ?? "unknown"}).`,
        },
      ],
    };
  }

  /** `tool_execution_end`: writes calls that ended without executing; forgets the call either way. */
  ended(event: CallFinished): void {
    const pending = this.pending.get(event.toolCallId);
    this.pending.delete(event.toolCallId);
    if (this.written.delete(event.toolCallId)) return;
    this.write(this.observation(event, pending, pending?.startedAt));
  }

  private observation(
    event: CallFinished,
    pending: Pending | undefined,
    startedAt: number | undefined,
  ): ToolCallObservation {
    return {
      toolName: event.toolName,
      toolCallId: event.toolCallId,
      ...(pending === undefined ? {} : { arguments: { value: pending.args } }),
      resultContent: event.content,
      resultDetails: event.details,
      isError: event.isError,
      durationMs: startedAt === undefined ? undefined : this.now() - startedAt,
    };
  }

  private write(call: ToolCallObservation): boolean {
    if (this.failure !== undefined) return false;
    try {
      this.append(toolAuditLine(buildToolAuditRecord(this.ordinal + 1, call)));
      this.ordinal += 1;
      return true;
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
      this.report(`pi-background-tasks: the tool-call audit log could not be written: ${this.failure}`);
      return false;
    }
  }
}
