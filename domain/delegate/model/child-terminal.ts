import { Type } from "typebox";
import { Value } from "typebox/value";
import { DELEGATE_RUN_CODES, type DelegateRunCode } from "./delegate-error.ts";
import type { Latch } from "./delegate-guard.ts";
import type { GuardCounters } from "./result-package.ts";

export const CHILD_TERMINAL_SCHEMA = "pi-background-tasks.delegate-child-terminal.v1";

/** `child-terminal.json`: the failure a child latched. Its presence means the child will never commit. */
export interface ChildTerminal {
  readonly schema_version: typeof CHILD_TERMINAL_SCHEMA;
  readonly task_id: string;
  readonly launch_nonce: string;
  readonly code: DelegateRunCode;
  readonly reason: string;
  readonly hook: string;
  readonly counters: GuardCounters;
}

const Count = Type.Integer({ minimum: 0 });
const ChildTerminalSchema = Type.Object(
  {
    schema_version: Type.Literal(CHILD_TERMINAL_SCHEMA),
    task_id: Type.String(),
    launch_nonce: Type.String(),
    code: Type.String(),
    reason: Type.String(),
    hook: Type.String(),
    counters: Type.Object(
      { turns: Count, tool_calls: Count, spilled_results: Count, tool_output_bytes: Count },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export function childTerminal(
  taskId: string,
  launchNonce: string,
  latch: Latch,
  counters: GuardCounters,
): ChildTerminal {
  return {
    schema_version: CHILD_TERMINAL_SCHEMA,
    task_id: taskId,
    launch_nonce: launchNonce,
    code: latch.code,
    reason: latch.reason,
    hook: latch.hook,
    counters,
  };
}

/** The terminal record if it is well formed and belongs to this launch; undefined otherwise. */
export function parseChildTerminal(raw: unknown, taskId: string, launchNonce: string): ChildTerminal | undefined {
  if (!Value.Check(ChildTerminalSchema, raw)) return undefined;
  const record = raw as ChildTerminal;
  if (record.task_id !== taskId || record.launch_nonce !== launchNonce) return undefined;
  return (DELEGATE_RUN_CODES as readonly string[]).includes(record.code) ? record : undefined;
}
