import type { TaskNotification } from "../../domain/tasks/model/notification.ts";
import { err, ok, typedError, type Result } from "../../domain/shared/model/result.ts";
import type { NotifyError, TaskNotifier } from "../../ports/task-notifier.ts";

/** Keeps every notice it is handed, in order; built with a reason, it refuses every one like a gone host. */
export class RecordingTaskNotifier implements TaskNotifier {
  readonly delivered: TaskNotification[] = [];

  constructor(private readonly refusal?: string) {}

  async deliver(notification: TaskNotification): Promise<Result<void, NotifyError>> {
    if (this.refusal !== undefined) return err(typedError("notify_failed", this.refusal));
    this.delivered.push(notification);
    return ok(undefined);
  }
}
