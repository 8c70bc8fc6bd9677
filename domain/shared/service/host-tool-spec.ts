import type { HostSession } from "../../../ports/host-session.ts";
import type { Result, TypedError } from "../model/result.ts";
import type { ToolParametersSchema } from "../model/tool-parameters.ts";
import type { Usage } from "../model/usage.ts";

/** What a tool answers: the text the model reads and structured details for hosts and UIs. */
export interface ToolReply<Details> {
  readonly text: string;
  readonly details: Details;
  /** Model usage the tool spent (Fusion's children); hosts that count tool-result usage add it to the session. */
  readonly usage?: Usage;
}

/** The executing call and its session, on hosts with a conversation. */
export interface ToolCall {
  readonly toolCallId: string;
  readonly session: HostSession;
}

/** What a host hands a running tool. */
export interface ToolRunContext {
  /** Aborted when the host cancels the call. */
  readonly signal?: AbortSignal;
  /** A short status line while a long call runs, with structured details for UIs (hosts may show it or use it as a keep-alive). */
  readonly progress?: (message: string, details?: unknown) => void;
  /** Present on hosts with a conversation (Pi); a spec that `needsSession` is served only there. */
  readonly call?: ToolCall;
}

/**
 * One tool, defined once for every host: the Pi adapter maps it onto a Pi ToolDefinition, the MCP
 * adapter onto an MCP tool. The schema is plain JSON Schema (TypeBox); `normalize` is the package's own
 * check, run before anything happens on every host.
 */
/** What a tool does to the world, for clients that ask before they call (MCP tool annotations). */
export interface ToolEffects {
  /** Changes nothing outside the package's own records (task files, receipts). */
  readonly readOnlyHint: boolean;
  /** May destroy or overwrite what exists (meaningful only when not read-only). */
  readonly destructiveHint: boolean;
  /** Calling it again with the same arguments changes nothing more (meaningful only when not read-only). */
  readonly idempotentHint: boolean;
  /** Reaches beyond this machine's project: model providers, the web, arbitrary commands. */
  readonly openWorldHint: boolean;
}

/** Looks at tasks and runs of this project only. */
export const READS_PROJECT: ToolEffects = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Read-only children that call model providers (and, for research, the web). */
export const ASKS_MODELS: ToolEffects = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};
/** Stops this project's tasks (their processes end; stopping twice is stopping once). */
export const STOPS_TASKS: ToolEffects = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
/** Starts whatever command or agent it is given. */
export const RUNS_ANYTHING: ToolEffects = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

export interface HostToolSpec<Args, Details> {
  readonly name: string;
  readonly label: string;
  readonly effects: ToolEffects;
  readonly description: string;
  readonly promptSnippet: string;
  readonly promptGuidelines?: readonly string[];
  readonly parameters: ToolParametersSchema;
  /** True for a tool that works on the calling session (its conversation, models or credentials). */
  readonly needsSession?: boolean;
  normalize(raw: unknown): Result<Args, TypedError>;
  run(args: Args, context: ToolRunContext): Promise<Result<ToolReply<Details>, TypedError>>;
}

/** A spec whose argument and detail types are erased, for lists of tools a host serves. */
export type AnyHostToolSpec = HostToolSpec<unknown, unknown>;

/** Normalises raw arguments and runs the tool: nothing runs when the arguments are refused. */
export async function callToolSpec(
  spec: AnyHostToolSpec,
  raw: unknown,
  context: ToolRunContext,
): Promise<Result<ToolReply<unknown>, TypedError>> {
  const args = spec.normalize(raw);
  return args.ok ? spec.run(args.value, context) : args;
}

/** A session tool called without a session: the host served a spec it should not have (see `needsSession`). */
export function sessionRequired(tool: string): TypedError<"session_required"> {
  return {
    code: "session_required",
    message: `${tool} works on the calling agent's session, and this host gave the call none (session_required). Nothing was started.`,
  };
}
