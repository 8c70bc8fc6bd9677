import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { TaskNotification } from "../../domain/tasks/model/notification.ts";
import type { NotifyError, TaskNotifier } from "../../ports/task-notifier.ts";

/** Delivers completion notices as custom messages queued as follow-ups, optionally starting a turn. */
export class PiTaskNotifier implements TaskNotifier {
  constructor(private readonly pi: Pick<ExtensionAPI, "sendMessage">) {}

  async deliver(notification: TaskNotification): Promise<Result<void, NotifyError>> {
    try {
      this.pi.sendMessage(
        {
          customType: notification.customType,
          content: notification.content,
          display: true,
          details: notification.snapshot,
        },
        { deliverAs: "followUp", triggerTurn: notification.triggerTurn },
      );
      return ok(undefined);
    } catch (cause) {
      return err({ code: "notify_failed", message: cause instanceof Error ? cause.message : String(cause) });
    }
  }
}
