import { ASKS_MODELS, type HostToolSpec, sessionRequired, type ToolCall } from "../../shared/service/host-tool-spec.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { DELEGATE_TOOL, DelegateArgumentsSchema, parseDelegateArguments } from "../model/delegate-arguments.ts";
import type { DelegateLaunchReceipt } from "../model/launch-receipt.ts";

/** Launches one delegate for the executing call; the arguments are the model's own (checked, not rewritten). */
export type DelegateLauncher = (
  rawArguments: unknown,
  call: ToolCall,
) => Promise<Result<DelegateLaunchReceipt, TypedError>>;

/** `bg_delegate`: one background agent seeded with the visible conversation; its answer via bg_result. */
export function delegateToolSpec(launch: DelegateLauncher): HostToolSpec<unknown, DelegateLaunchReceipt> {
  return {
    name: DELEGATE_TOOL,
    label: "Background Delegate",
    effects: ASKS_MODELS,
    description:
      "Start one background Pi agent that sees the visible conversation (not tool outputs or thinking) and works with read-only tools (read, grep, find, ls). Returns at once; the completion notification wakes you, then fetch the answer with bg_result. Restate in the prompt any fact that exists only in tool output.",
    promptSnippet: "Delegate a read-only investigation to a background agent that inherits the conversation",
    promptGuidelines: [
      "bg_delegate children see the visible conversation but not tool outputs or thinking: restate facts they need in the prompt.",
      "After bg_delegate, do not poll: the completion notification wakes you; then call bg_result once.",
    ],
    parameters: DelegateArgumentsSchema,
    needsSession: true,
    // The launch records the arguments exactly as sent (their hash is in the manifest): checked here, passed on whole.
    normalize: (raw) => {
      const parsed = parseDelegateArguments(raw);
      return parsed.ok ? ok(raw) : parsed;
    },
    run: async (raw, context) => {
      if (context.call === undefined) return err(sessionRequired(DELEGATE_TOOL));
      const receipt = await launch(raw, context.call);
      return receipt.ok ? ok({ text: receipt.value.message, details: receipt.value }) : receipt;
    },
  };
}
