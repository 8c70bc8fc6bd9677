import type { ExtensionContext, ToolDefinition } from "@mariozechner/pi-coding-agent";
// The model modules, not the service barrel: registration must not load the delegate runner.
import {
  DELEGATE_TOOL,
  DelegateArgumentsSchema,
  parseDelegateArguments,
} from "../../domain/delegate/model/delegate-arguments.ts";
import type { DelegateLaunchReceipt } from "../../domain/delegate/model/launch-receipt.ts";
import type { Result, TypedError } from "../../domain/shared/model/result.ts";
import { unwrap } from "./typed-error.ts";

/** Launches one delegate for the executing tool call; the composition root supplies it. */
export type DelegateLauncher = (
  args: unknown,
  toolCallId: string,
  ctx: ExtensionContext,
) => Promise<Result<DelegateLaunchReceipt, TypedError>>;

/** `bg_delegate`: one background agent seeded with the visible conversation; its answer via bg_result. */
export function delegateTool(launch: DelegateLauncher): ToolDefinition {
  return {
    name: DELEGATE_TOOL,
    label: "Background Delegate",
    description:
      "Start one background Pi agent that sees the visible conversation (not tool outputs or thinking) and works with read-only tools (read, grep, find, ls). Returns at once; the completion notification wakes you, then fetch the answer with bg_result. Restate in the prompt any fact that exists only in tool output.",
    promptSnippet: "Delegate a read-only investigation to a background agent that inherits the conversation",
    promptGuidelines: [
      "bg_delegate children see the visible conversation but not tool outputs or thinking: restate facts they need in the prompt.",
      "After bg_delegate, do not poll: the completion notification wakes you; then call bg_result once.",
    ],
    parameters: DelegateArgumentsSchema,
    prepareArguments: (raw: unknown) => {
      unwrap(parseDelegateArguments(raw));
      return raw as never;
    },
    async execute(toolCallId, params, _signal, _onUpdate, ctx) {
      const receipt = unwrap(await launch(params, toolCallId, ctx));
      return { content: [{ type: "text", text: receipt.message }], details: receipt };
    },
  };
}
