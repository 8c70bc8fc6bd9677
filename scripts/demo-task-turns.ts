import { messageText, type ChatRequestBody } from "../adapters/fake/chat-request.ts";
import type { ResponderInput, ScriptedReply } from "../adapters/fake/scripted-model-server.ts";

export const BUILD_PROMPT = "build the project in the background and tell me how it went";

/**
 * The scripted parent's background-task turns, decided by the newest prompt or notice: a prompt starts a
 * short build with bg_run and ends the turn; that task's completion notice wakes it to read the log.
 */
export function taskTurns(input: ResponderInput): ScriptedReply {
  if (input.lastMessageRole === "tool")
    return input.toolResults.some((r) => r.includes("[Full output"))
      ? { text: "The build finished: all three steps ran and it printed 'build ok'. Done." }
      : { text: "The build is running in the background. I'll continue when it finishes." };
  const woken = /<background-task-notification>[\s\S]*?<task-id>(b[0-9a-f]+)<\/task-id>/.exec(latestCue(input.body));
  if (woken !== null) return { toolCalls: [{ name: "bg_logs", arguments: { taskId: woken[1] } }] };
  return {
    toolCalls: [
      {
        name: "bg_run",
        arguments: {
          name: "demo build",
          command: "for i in 1 2 3; do echo \"step $i\"; sleep 0.4; done; echo 'build ok'",
          isAgent: false,
        },
      },
    ],
  };
}

/** The newest message not from the model or a tool: a user prompt or a host notice, whichever role the host gives it. */
export function latestCue(body: ChatRequestBody): string {
  const messages = body.messages ?? [];
  for (let i = messages.length - 1; i > 0; i -= 1) {
    const message = messages[i];
    if (message !== undefined && message.role !== "assistant" && message.role !== "tool") return messageText(message);
  }
  return "";
}
