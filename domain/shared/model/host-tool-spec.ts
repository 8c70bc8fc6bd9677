import type { TSchema } from "typebox";
import type { Result, TypedError } from "./result.ts";

/** What a tool answers: the text the model reads and structured details for hosts and UIs. */
export interface ToolReply<Details> {
  readonly text: string;
  readonly details: Details;
}

/** What a host hands a running tool. */
export interface ToolRunContext {
  /** Aborted when the host cancels the call. */
  readonly signal?: AbortSignal;
  /** A short status line while a long call runs (hosts may show it or use it as a keep-alive). */
  readonly progress?: (message: string) => void;
}

/**
 * One tool, defined once for every host: the Pi adapter maps it onto a Pi ToolDefinition, the MCP
 * adapter onto an MCP tool. The schema is plain JSON Schema (TypeBox); `normalize` is the package's own
 * check, run before anything happens on every host.
 */
export interface HostToolSpec<Args, Details> {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly promptSnippet: string;
  readonly promptGuidelines?: readonly string[];
  readonly parameters: TSchema;
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
