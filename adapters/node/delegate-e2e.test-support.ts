import { readFileSync } from "node:fs";
import type { SourceMessage } from "../../domain/projection/model/source-message.ts";
import { launchDelegate, type DelegateLaunch } from "../../domain/delegate/service/launch-delegate.ts";
import type { AvailableModel } from "../../domain/delegate/model/delegate-route.ts";
import { ok } from "../../domain/shared/model/result.ts";
import type { ConversationSource } from "../../ports/conversation-source.ts";
import type { ProcessLauncher } from "../../ports/process-launcher.ts";
import { nodeDelegateHost } from "./delegate-node-host.ts";
import { nodeDelegatePorts } from "./delegate-ports.test-support.ts";

/** Canaries of a parent conversation: only VISIBLE may ever reach a delegate's model. */
export const CANARY = {
  visibleUser: "CANARY-VISIBLE-USER-61f0",
  visibleAssistant: "CANARY-VISIBLE-ASSISTANT-0b7e",
  thinking: "CANARY-THINKING-3a9d",
  toolArgs: "CANARY-TOOL-ARGS-c4e2",
  toolResult: "CANARY-TOOL-RESULT-77d1",
  siblingArgs: "CANARY-SIBLING-ARGS-9e05",
  batchText: "CANARY-BATCH-TEXT-5c3b",
} as const;

export const ACTIVE_CALL = "call_delegate_1";
export const SIBLING_CALL = "call_delegate_2";

/** A parent branch whose last assistant message launches two delegates at once. */
export function parentMessages(): SourceMessage[] {
  return [
    { role: "user", content: `Please look at the parser. ${CANARY.visibleUser}` },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: `private reasoning ${CANARY.thinking}` },
        { type: "text", text: `I will read it first. ${CANARY.visibleAssistant}` },
        { type: "toolCall", id: "call_read_1", name: "read", arguments: { path: CANARY.toolArgs } },
      ],
    },
    {
      role: "toolResult",
      toolCallId: "call_read_1",
      toolName: "read",
      content: [{ type: "text", text: `file body ${CANARY.toolResult}` }],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: `Delegating two reviews. ${CANARY.batchText}` },
        { type: "toolCall", id: ACTIVE_CALL, name: "bg_delegate", arguments: { name: "one", prompt: "first" } },
        {
          type: "toolCall",
          id: SIBLING_CALL,
          name: "bg_delegate",
          arguments: { name: "two", prompt: CANARY.siblingArgs },
        },
      ],
    },
  ];
}

export function conversationOf(
  cwd: string,
  messages: readonly SourceMessage[],
  systemPrompt = "You are the parent agent.",
): ConversationSource {
  return { capture: () => ok({ cwd, systemPrompt, messages }) };
}

export interface DelegateSetup {
  readonly cwd: string;
  readonly agentEnv: Readonly<Record<string, string>>;
  readonly models: readonly AvailableModel[];
  readonly route: { readonly provider: string; readonly model: string };
  readonly messages?: readonly SourceMessage[];
  readonly args: Record<string, unknown>;
  /** Wraps the real launcher (to tamper with files just before the child starts). */
  readonly launcher?: (real: ProcessLauncher) => ProcessLauncher;
}

/** One real `bg_delegate` launch: node ports, the installed Pi, the package's guard and evidence. */
export async function launchReal(setup: DelegateSetup): Promise<DelegateLaunch> {
  const ports = nodeDelegatePorts({
    conversation: conversationOf(setup.cwd, setup.messages ?? parentMessages()),
    baseEnv: { ...process.env, ...setup.agentEnv },
  });
  const launched = await launchDelegate(
    setup.launcher === undefined ? ports : { ...ports, launcher: setup.launcher(ports.launcher) },
    {
      rawArguments: setup.args,
      toolCallId: ACTIVE_CALL,
      location: { baseDir: setup.cwd, sessionId: "parent-session", pid: process.pid },
      currentRoute: setup.route,
      availableModels: setup.models,
      host: nodeDelegateHost(process.env),
    },
  );
  if (!launched.ok) throw new Error(launched.error.message);
  return launched.value;
}

export const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
