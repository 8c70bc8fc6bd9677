import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { describeTaskNotifierContract } from "../../contract-tests/task-notifier.contract.ts";
import { NOTIFICATION_CUSTOM_TYPE, type TaskNotification } from "../../domain/tasks/model/notification.ts";
import type { TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import { PiTaskNotifier } from "./pi-task-notifier.ts";

type SendMessage = ExtensionAPI["sendMessage"];

/** Records what Pi's sendMessage was given and reads it back as the notice the port was handed. */
function recordingPi() {
  const calls: TaskNotification[] = [];
  const sendMessage: SendMessage = (message, options) => {
    if (message.customType !== NOTIFICATION_CUSTOM_TYPE || typeof message.content !== "string")
      throw new Error(`unexpected message ${message.customType}`);
    if (options?.deliverAs !== "followUp" || message.display !== true)
      throw new Error("a notice must be a displayed follow-up");
    calls.push({
      customType: NOTIFICATION_CUSTOM_TYPE,
      content: message.content,
      snapshot: message.details as TaskSnapshot,
      triggerTurn: options.triggerTurn === true,
    });
  };
  return { pi: { sendMessage }, calls };
}

describeTaskNotifierContract("PiTaskNotifier", {
  accepting: async () => {
    const { pi, calls } = recordingPi();
    return { notifier: new PiTaskNotifier(pi), received: async () => [...calls] };
  },
  refusing: async () => {
    const sendMessage: SendMessage = () => {
      throw new Error("This extension instance is stale after session replacement or reload");
    };
    return { notifier: new PiTaskNotifier({ sendMessage }), received: async () => [] };
  },
});

describeTaskNotifierContract("PiTaskNotifier (host throws a non-Error value)", {
  accepting: async () => {
    const { pi, calls } = recordingPi();
    return { notifier: new PiTaskNotifier(pi), received: async () => [...calls] };
  },
  refusing: async () => {
    const sendMessage: SendMessage = () => {
      throw "session gone";
    };
    return { notifier: new PiTaskNotifier({ sendMessage }), received: async () => [] };
  },
});
