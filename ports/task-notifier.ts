import type { TaskNotification } from "../domain/tasks/model/notification.ts";
import type { Result, TypedError } from "../domain/shared/model/result.ts";

export type NotifyError = TypedError<"notify_failed">;

/** Delivers a task's completion notice to the host (in Pi: a custom message that may wake the agent). */
export interface TaskNotifier {
  deliver(notification: TaskNotification): Promise<Result<void, NotifyError>>;
}
