import type { AgentToolResult, ExtensionContext, ToolDefinition } from "@mariozechner/pi-coding-agent";
import type { TSchema } from "typebox";
import type { Result, TypedError } from "../../domain/shared/model/result.ts";
import { unwrap } from "./typed-error.ts";

export interface ToolSpec<Args, Details> {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly promptSnippet: string;
  readonly promptGuidelines?: string[];
  readonly parameters: TSchema;
  /** Validates and normalises raw arguments; runs before Pi's own validation and again inside execute. */
  readonly normalize: (raw: unknown) => Result<Args, TypedError>;
  readonly run: (
    args: Args,
    ctx: ExtensionContext,
    signal: AbortSignal | undefined,
  ) => Promise<Result<AgentToolResult<Details>, TypedError>>;
}

/**
 * A Pi tool whose arguments are checked by the package itself: Pi's validator converts some
 * primitives, so the normalised form is re-validated inside execute before anything happens.
 */
export function defineTool<Args, Details>(spec: ToolSpec<Args, Details>): ToolDefinition {
  return {
    name: spec.name,
    label: spec.label,
    description: spec.description,
    promptSnippet: spec.promptSnippet,
    ...(spec.promptGuidelines === undefined ? {} : { promptGuidelines: spec.promptGuidelines }),
    parameters: spec.parameters,
    prepareArguments: (raw: unknown) => unwrap(spec.normalize(raw)) as never,
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      const args = unwrap(spec.normalize(params));
      return unwrap(await spec.run(args, ctx, signal));
    },
  };
}
